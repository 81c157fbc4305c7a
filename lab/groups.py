"""The two editing roles, as auth groups, the permissions each holds, and who holds which.

`groups()` reads the roles' permissions from the one declaration of content
(core/content.py): after every `migrate`, `sync_groups` makes both groups hold exactly these
(a new model's permissions reach the roles with the migration that adds it; a permission
ticked by hand on a group is undone).
The admin then narrows what a member may do to the rows they own (lab/editing.py).
"""

from typing import cast

from django.db.models import Q

from core import content
from core.content import ALL

LAB_ADMIN_GROUP = "Lab admin"
LAB_MEMBER_GROUP = "Lab member"

# Beyond the content (core/content.py): lab admins manage member accounts.
LAB_ADMIN_EXTRA = {"auth": {"user": ALL, "group": ("view",)}}


def groups() -> dict[str, dict[str, dict[str, tuple[str, ...]]]]:
    """{group: {app label: {model: actions}}}: lab admins everything on every content
    model, and the accounts; members what each content app declares."""
    admin: dict[str, dict[str, tuple[str, ...]]] = {}
    for model in content.models_of():
        admin.setdefault(model._meta.app_label, {})[cast(str, model._meta.model_name)] = ALL
    return {
        LAB_ADMIN_GROUP: {**admin, **LAB_ADMIN_EXTRA},
        LAB_MEMBER_GROUP: content.member_permissions(),
    }


def sync_groups(sender=None, apps=None, using="default", **kwargs):
    """Create both groups if missing and give each exactly the permissions `groups()` says
    (of those that exist yet: post_migrate calls this once per app, the last call after
    every app's permissions are made)."""
    from django.apps import apps as global_apps

    apps = apps or global_apps
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, grants in groups().items():
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


def manageable_accounts(user):
    """The accounts `user` may administer: every account for a superuser; for anyone else,
    accounts that are neither superusers nor lab admins, and not their own."""
    from django.contrib.auth import get_user_model

    accounts = get_user_model().objects.all()
    if user.is_superuser:
        return accounts
    return accounts.exclude(
        Q(is_superuser=True) | Q(groups__name=LAB_ADMIN_GROUP) | Q(pk=user.pk)
    ).distinct()


def linkable_accounts(user, linked=None):
    """The login accounts `user` may link to a person's profile: any, for a superuser; for a
    lab admin, member accounts (those they manage), their own, and `linked`, the one the
    profile has now. Never a superuser's or another lab admin's: whoever the profile's
    account is, its e-mail and invitations are the lab admin's to change."""
    accounts = manageable_accounts(user)
    if user.is_superuser:
        return accounts
    kept = Q(pk=user.pk) | Q(pk=linked) if linked else Q(pk=user.pk)
    return accounts.model.objects.filter(Q(pk__in=accounts.values("pk")) | kept)
