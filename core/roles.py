"""The two editing roles, as auth groups, the permissions each holds, and who holds which.

`GROUPS` is the one declaration of the roles' permissions: after every `migrate`,
`sync_groups` makes both groups hold exactly these (a new model's permissions reach the
roles with the migration that adds it; a permission ticked by hand on a group is undone).
The admin then narrows what a member may do to the rows they own (people/editing.py).
"""

from django.db.models import Q

LAB_ADMIN_GROUP = "Lab admin"
LAB_MEMBER_GROUP = "Lab member"

ALL = ("add", "change", "delete", "view")
PROFILE_SECTIONS = (
    "link", "newsitem", "education", "experience", "service", "project", "projectresult",
    "contribution",
    "writing", "reportedfigure", "extrasection", "sectionintroduction",
)  # fmt: skip

# group: {app label: {model: actions}}
GROUPS = {
    LAB_ADMIN_GROUP: {
        "people": {"person": ALL, "labsettings": ALL, **dict.fromkeys(PROFILE_SECTIONS, ALL)},
        "publications": {
            "venue": ALL,
            "publication": ALL,
            "authorship": ALL,
            "projectpublication": ALL,
        },
        "talks": {"talk": ALL, "speaker": ALL, "award": ALL, "recipient": ALL, "projecttalk": ALL},
        "auth": {"user": ALL, "group": ("view",)},
    },
    LAB_MEMBER_GROUP: {
        "people": {"person": ("change", "view"), **dict.fromkeys(PROFILE_SECTIONS, ALL)},
        "publications": {
            "venue": ("add", "view"),
            "publication": ALL,
            "authorship": ALL,
            "projectpublication": ALL,
        },
        "talks": {"talk": ALL, "speaker": ALL, "award": ALL, "recipient": ALL, "projecttalk": ALL},
    },
}


def sync_groups(sender=None, apps=None, using="default", **kwargs):
    """Create both groups if missing and give each exactly the permissions GROUPS declares
    (of those that exist yet: post_migrate calls this once per app, the last call after
    every app's permissions are made)."""
    from django.apps import apps as global_apps

    apps = apps or global_apps
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, grants in GROUPS.items():
        wanted = Q(pk__in=[])
        for app_label, models in grants.items():
            for model, actions in models.items():
                codenames = [f"{action}_{model}" for action in actions]
                wanted |= Q(content_type__app_label=app_label, codename__in=codenames)
        group, _ = Group.objects.using(using).get_or_create(name=name)
        group.permissions.set(Permission.objects.using(using).filter(wanted))


def is_lab_admin(user):
    """Superusers and the "Lab admin" group edit everything (cached on the user)."""
    if not hasattr(user, "_is_lab_admin"):
        user._is_lab_admin = user.is_active and (
            user.is_superuser or user.groups.filter(name=LAB_ADMIN_GROUP).exists()
        )
    return user._is_lab_admin
