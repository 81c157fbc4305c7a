from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from core.content import ALL


class PublicationsConfig(AppConfig):
    name = "publications"
    verbose_name = _("Publications")
    # core/content.py: every model here is content but an import's preview (kept a day) and
    # the papers as exports write them (rebuilt from the papers)
    holds_content = True
    transient_models = ("importbatch", "exportentry")
    # core/changes.py: a change of what export entries are written from queues their rewrite
    on_content_change = ("publications.tasks.papers_changed",)
    # core/changes.py: a change to an author row or a venue is a change of its papers
    # (`updated` moves)
    on_row_change = ("publications.models.stamp_papers",)
    member_permissions = {
        "venue": ("add", "view"),
        "publication": ALL,
        "authorship": ALL,
        "projectpublication": ALL,
    }
