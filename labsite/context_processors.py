from people.models import LabSettings

# The WSGI environ key `export_static` sets on its requests: the page as the static copy
# shows it. Not an HTTP header, so no visitor can send it.
STATIC_EXPORT_KEY = "labsite.static_export"


def lab(request):
    """The lab settings, for the header, footer and page titles of every page, and whether
    the page is rendered for the static copy (`static_export`)."""
    return {"lab": LabSettings.load(), "static_export": STATIC_EXPORT_KEY in request.META}
