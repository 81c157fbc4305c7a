"""What counts as content is declared once (core/content.py, on each app's config), and the
page cache, backups, translated model texts and editing roles all follow the declaration."""

import pytest
from django.apps import apps
from django.contrib.auth.models import Group

from core import content
from lab.groups import LAB_ADMIN_GROUP, sync_groups
from labsite import archive, i18n, page_cache
from publications.models import ImportBatch, Publication

pytestmark = pytest.mark.django_db


def _project_models():
    """The models of this project's own apps (not of Django or installed packages)."""
    own = {config.label for config in content.project_apps()}
    return [model for model in apps.get_models() if model._meta.app_label in own]


def test_every_model_of_the_project_is_classified():
    unclassified = [m._meta.label for m in _project_models() if content.kind(m) is None]

    # an app of this project that holds models says what they are (holds_content, and
    # transient_models for those that are not content)
    assert unclassified == []
    assert content.kind(Publication) == content.CONTENT
    assert content.kind(Publication.history.model) == content.HISTORY
    assert content.kind(ImportBatch) == content.TRANSIENT
    assert content.kind(Group) is None  # accounts are not content


def _followers_of_the_declaration(admin_user):
    """What each consumer makes of ImportBatch: (does a save change pages, is it backed
    up, do lab admins hold its permissions, are its texts translated)."""
    before = page_cache.content_version()
    ImportBatch.objects.create(user=admin_user)
    sync_groups()
    admin_permissions = {
        p.codename for p in Group.objects.get(name=LAB_ADMIN_GROUP).permissions.all()
    }
    return (
        page_cache.content_version() != before,
        ImportBatch in archive.archived_models(accounts=False, history=False),
        "change_importbatch" in admin_permissions,
        str(ImportBatch._meta.verbose_name_plural) in i18n.model_texts(),
    )


def test_one_declaration_makes_a_model_content_everywhere(admin_user, monkeypatch):
    assert _followers_of_the_declaration(admin_user) == (False, False, False, True)

    config = apps.get_app_config("publications")
    monkeypatch.setattr(config, "transient_models", ())  # the one line that says otherwise

    assert _followers_of_the_declaration(admin_user) == (True, True, True, True)


def test_content_no_page_shows_is_kept_in_backups_and_moves_no_page_version():
    from harvest.models import Candidate
    from people.models import Person

    kept = archive.archived_models(accounts=False, history=False)
    invitation = {"invited", "user"}  # the fields an invitation saves

    assert Candidate in kept and Person in kept
    assert not content.shown_on_pages(Candidate)
    assert not content.shown_on_pages(Candidate.people.through)  # its links, as it is
    assert not content.shown_on_pages(Person, invitation)
    assert content.shown_on_pages(Person, invitation | {"name"})
    assert content.shown_on_pages(Person)  # a whole save
    assert not content.shown_on_pages(ImportBatch)  # no content at all


def test_what_the_apps_declare_unshown_names_their_own_models_and_fields():
    named = [
        (config.get_model(name), fields)
        for config in content.content_apps()
        for name, fields in [
            *((m, ()) for m in getattr(config, "unshown_models", ())),
            *getattr(config, "unshown_fields", {}).items(),
        ]
    ]  # get_model: LookupError for a name the app has no model of

    assert named
    for model, fields in named:
        assert content.is_content(model)
        for field in fields:
            model._meta.get_field(field)  # FieldDoesNotExist for a misspelled one
