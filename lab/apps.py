from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LabConfig(AppConfig):
    """What every content app shares: the lab's settings and member roles, the two
    editing roles (auth groups) and the admin base every content admin is built on."""

    name = "lab"
    verbose_name = _("Lab")
    # core/content.py: the settings are content (pages show them); lab admins alone edit them
    holds_content = True

    def ready(self):
        from django.db.models.signals import post_migrate

        from lab.groups import sync_groups

        # Sent once per app after every migrate (and after a test's table flush); the last
        # call, once every app's permissions exist, leaves the roles exactly as declared.
        post_migrate.connect(sync_groups, dispatch_uid="lab-sync-groups")
