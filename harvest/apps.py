from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HarvestConfig(AppConfig):
    name = "harvest"
    verbose_name = _("Harvested work")
    # core/content.py: candidates are content (a review, a rejection, a "not me" are lab
    # decisions that a backup keeps); a run's report is the site's own log, kept, not backed up.
    holds_content = True
    transient_models = ("harvestrun",)
    # ... and no page shows a candidate, where it was found or under which identifiers: a
    # harvest leaves every cached page as it is (accepted, a candidate becomes a paper).
    unshown_models = ("candidate", "workid", "provenance")
    member_permissions = {"candidate": ("change", "view")}

    def sources(self):
        """(code, name) of every source a run reads, in its order: the one registry
        (`harvest.sources.harvesters`), which the lab settings read to offer auto-accept."""
        from harvest.models import Source
        from harvest.sources import harvesters

        names = dict(Source.choices)
        return [(code, names.get(code, code)) for code in harvesters()]
