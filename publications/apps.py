from django.apps import AppConfig
from django.db.models.signals import post_delete, post_migrate, post_save
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
    member_permissions = {
        "venue": ("add", "view"),
        "publication": ALL,
        "authorship": ALL,
        "projectpublication": ALL,
    }

    def ready(self):
        from publications import models, tasks

        # A change to an author row or a venue is a change of its papers (`updated` moves).
        for signal in (post_save, post_delete):
            signal.connect(models.paper_changed, sender=models.Authorship, dispatch_uid="paper")
        post_save.connect(models.venue_changed, sender=models.Venue, dispatch_uid="venue-papers")
        post_migrate.connect(tasks.schema_changed, sender=self, dispatch_uid="publications-exports")
