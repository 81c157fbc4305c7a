from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from core.content import ALL


class PublicationsConfig(AppConfig):
    name = "publications"
    verbose_name = _("Publications")
    # core/content.py: every model here is content but an import's preview (kept a day)
    holds_content = True
    transient_models = ("importbatch",)
    member_permissions = {
        "venue": ("add", "view"),
        "publication": ALL,
        "authorship": ALL,
        "projectpublication": ALL,
    }
