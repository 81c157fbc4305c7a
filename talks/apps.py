from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TalksConfig(AppConfig):
    name = "talks"
    verbose_name = _("Talks and awards")

    def ready(self):
        from publications import listing
        from talks.models import Award

        listing.connect_tied(Award)  # a paper's entry names its awards
