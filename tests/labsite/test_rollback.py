"""Rolling back the migrations that made texts bilingual, as README's upgrade section
describes, refuses while Chinese texts are held, rather than deleting them."""

import pytest
from django.core.management import CommandError, call_command

from people.models import Person
from tests import factories
from website.models import MenuItem

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_rollback_that_would_drop_chinese_texts_refuses_and_keeps_them():
    person = factories.PersonFactory(name="Teng Ma", slug="teng-ma")
    person.bio_zh_hans = "马腾的简介。"
    person.save()
    factories.TalkFactory(title="A Talk", title_zh_hans="一个报告")

    try:
        with pytest.raises(CommandError, match="delete the texts entered in zh_hans") as refused:
            call_command("migrate", "people", "0012", verbosity=0)
    finally:
        call_command("migrate", verbosity=0)

    assert "1 people (bio_zh_hans)" in str(refused.value)
    assert Person.objects.get(slug="teng-ma").bio_zh_hans == "马腾的简介。"


def test_a_rollback_with_no_chinese_text_goes_through():
    factories.PersonFactory(name="Teng Ma", slug="teng-ma")

    try:
        call_command("migrate", "people", "0012", verbosity=0)
    finally:
        call_command("migrate", verbosity=0)

    assert Person.objects.get(slug="teng-ma").name == "Teng Ma"


def test_rolling_back_bilingual_interests_refuses_while_chinese_interests_are_held():
    person = factories.PersonFactory(name="Teng Ma", slug="teng-ma", bio_zh_hans="简介")
    person.research_interests_zh_hans = "操作系统"
    person.save()

    try:
        with pytest.raises(CommandError, match="delete the texts entered in zh_hans") as refused:
            call_command("migrate", "people", "0014", verbosity=0)
    finally:
        call_command("migrate", verbosity=0)

    # names only what this step would drop: the bio stays in its column after it
    assert "1 people (research_interests_zh_hans)" in str(refused.value)
    assert "bio_zh_hans" not in str(refused.value)
    assert Person.objects.get(slug="teng-ma").research_interests_zh_hans == "操作系统"


def test_a_refused_rollback_unapplies_nothing_before_it_refuses():
    """`migrate people 0014` must refuse while Chinese texts are held; it used to unapply
    the harvest app and people 0017-0016 first (each committed: members' identities and
    every candidate gone), then refuse."""
    from django.db import connection
    from django.db.migrations.recorder import MigrationRecorder

    from harvest.models import Candidate

    person = factories.PersonFactory(name="Teng Ma", slug="teng-ma", openalex_id="A5023888391")
    person.research_interests_zh_hans = "操作系统"
    person.save()
    Candidate.objects.create(title="A work found", record={})
    applied = set(MigrationRecorder(connection).applied_migrations())

    try:
        with pytest.raises(CommandError, match="delete the texts entered in zh_hans"):
            call_command("migrate", "people", "0014", verbosity=0)
        assert set(MigrationRecorder(connection).applied_migrations()) == applied
        assert Person.objects.get(slug="teng-ma").openalex_id == "A5023888391"
        assert Candidate.objects.count() == 1
    finally:
        call_command("migrate", verbosity=0)


def test_a_rollback_that_would_drop_a_table_of_content_refuses_and_unapplies_nothing():
    """`migrate publications 0011` takes back the research themes' migration (it depends on
    publications 0012): the themes' table would be dropped with the lab's themes in it."""
    from django.db.migrations.recorder import MigrationRecorder

    from website.models import Theme

    factories.ThemeFactory(title="Disaggregated memory")
    applied = set(MigrationRecorder.Migration.objects.values_list("app", "name"))

    try:
        with pytest.raises(CommandError, match="drop the tables holding") as refused:
            call_command("migrate", "publications", "0011", verbosity=0)
        assert set(MigrationRecorder.Migration.objects.values_list("app", "name")) == applied
    finally:
        call_command("migrate", verbosity=0)

    assert "research themes (website.Theme): 1" in str(refused.value)
    assert "nothing was rolled back" in str(refused.value)
    assert Theme.objects.get().title == "Disaggregated memory"


def test_a_rollback_dropping_only_empty_tables_goes_through():
    from django.db.migrations.recorder import MigrationRecorder

    try:
        call_command("migrate", "publications", "0011", verbosity=0)
        assert not MigrationRecorder.Migration.objects.filter(
            app="website", name="0004_research_themes"
        ).exists()
    finally:
        call_command("migrate", verbosity=0)


@pytest.mark.parametrize(
    ("section", "older"),
    [("posts", "0001_initial"), ("openings", "0002_posts"), ("research", "0003_openings")],
)
def test_rolling_back_a_menu_section_takes_its_entry_the_older_release_cannot_show(section, older):
    """The older release's menu knows no such section: every page was a 500 after the
    rollback, as on a fresh clone that rolled back past research themes."""
    factories.MenuItemFactory(page=None, section="people", position=10)
    factories.MenuItemFactory(page=None, section=section, position=60)

    try:
        call_command("migrate", "website", older, verbosity=0)
        sections = set(MenuItem.objects.values_list("section", flat=True))
    finally:
        call_command("migrate", verbosity=0)

    assert sections == {"people"}
