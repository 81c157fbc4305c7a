"""The editing roles hold exactly the permissions lab.groups.groups() declares, after every
migrate: a permission ticked by hand on a group is undone, a missing group comes back."""

import pytest
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command

from lab.groups import LAB_ADMIN_GROUP, LAB_MEMBER_GROUP, groups

pytestmark = pytest.mark.django_db


def _codenames(name):
    group = Group.objects.get(name=name)
    return {f"{p.content_type.app_label}.{p.codename}" for p in group.permissions.all()}


def _declared(name):
    return {
        f"{app}.{action}_{model}"
        for app, models in groups()[name].items()
        for model, actions in models.items()
        for action in actions
    }


def test_migrate_restores_the_declared_roles():
    Group.objects.get(name=LAB_MEMBER_GROUP).delete()
    admin = Group.objects.get(name=LAB_ADMIN_GROUP)
    admin.permissions.add(Permission.objects.get(codename="change_group"))  # ticked by hand

    call_command("migrate", verbosity=0)

    assert _codenames(LAB_ADMIN_GROUP) == _declared(LAB_ADMIN_GROUP)
    assert _codenames(LAB_MEMBER_GROUP) == _declared(LAB_MEMBER_GROUP)
    assert "auth.change_group" not in _codenames(LAB_ADMIN_GROUP)
