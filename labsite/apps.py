from django.apps import AppConfig
from django.db.models.signals import post_migrate


class LabsiteConfig(AppConfig):
    name = "labsite"
    verbose_name = "Lab site"

    def ready(self):
        from core.roles import sync_groups

        # Sent once per app after every migrate (and after a test's table flush); the last
        # call, once every app's permissions exist, leaves the roles exactly as declared.
        post_migrate.connect(sync_groups, dispatch_uid="labsite-sync-groups")
