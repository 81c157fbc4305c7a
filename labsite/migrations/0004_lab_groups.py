"""The two editing roles, as auth groups: "Lab admin" edits everything (content, accounts, lab
settings); "Lab member" edits their own profile and work (the admin limits them to rows they
own). Reversible: going back removes both groups."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ALL = ["add", "change", "delete", "view"]

LAB_ADMIN = {
    "labsite": {"labsettings": ALL},
    "people": {
        m: ALL
        for m in [
            "person", "link", "newsitem", "education", "experience", "service", "project",
            "contribution", "writing", "reportedfigure", "extrasection",
        ]
    },
    "publications": {"venue": ALL, "publication": ALL, "authorship": ALL},
    "talks": {"talk": ALL, "speaker": ALL, "award": ALL, "recipient": ALL},
    "auth": {"user": ALL, "group": ["view"]},
}  # fmt: skip

LAB_MEMBER = {
    "people": {
        "person": ["change", "view"],
        **{
            m: ALL
            for m in [
                "link", "newsitem", "education", "experience", "service", "project",
                "contribution", "writing", "reportedfigure", "extrasection",
            ]
        },
    },
    "publications": {"venue": ["add", "view"], "publication": ALL, "authorship": ALL},
    "talks": {"talk": ALL, "speaker": ALL, "award": ALL, "recipient": ALL},
}  # fmt: skip

GROUPS = {"Lab admin": LAB_ADMIN, "Lab member": LAB_MEMBER}


def create_groups(apps, schema_editor):
    # Permissions are normally made after `migrate` finishes; make them now to assign them.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, grants in GROUPS.items():
        group, _ = Group.objects.get_or_create(name=name)
        codenames = [
            (app, f"{action}_{model}")
            for app, models in grants.items()
            for model, actions in models.items()
            for action in actions
        ]
        permissions = [
            Permission.objects.get(content_type__app_label=app, codename=codename)
            for app, codename in codenames
        ]
        group.permissions.set(permissions)


def remove_groups(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=GROUPS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("labsite", "0003_history"),
        ("people", "0002_history"),
        ("publications", "0002_history"),
        ("talks", "0002_history"),
    ]

    operations = [migrations.RunPython(create_groups, remove_groups)]
