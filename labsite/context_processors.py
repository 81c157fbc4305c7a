from people.models import LabSettings


def lab(request):
    """The lab settings, for the header, footer and page titles of every page."""
    return {"lab": LabSettings.load()}
