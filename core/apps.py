from django.apps import AppConfig
from django.db.models.signals import pre_migrate


class CoreConfig(AppConfig):
    """Building blocks every app uses (partial dates, identifiers, images, documents, links,
    Markdown, slugs, initials, what counts as content, history restore, template filters);
    imports no app."""

    name = "core"
    verbose_name = "Building blocks"

    def ready(self):
        from core import changes
        from core.rollback import check_rollback_first, unapply_in_reverse_of_forwards

        changes.connect()  # what follows a change of content: one path (core/changes.py)

        pre_migrate.connect(check_rollback_first, dispatch_uid="core.rollback")
        unapply_in_reverse_of_forwards()
