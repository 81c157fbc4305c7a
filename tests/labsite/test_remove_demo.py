import io

import pytest
from django.core.management import call_command

from core import content
from lab.models import LabSettings
from people.models import Person
from publications.models import Publication
from tests.admin_forms import form_data
from tests.factories import (
    PageFactory,
    PersonFactory,
    PostAuthorFactory,
    PublicationFactory,
    UserFactory,
    photo_upload,
)
from website.models import MenuItem, Page

pytestmark = pytest.mark.django_db


def _remove_demo():
    out = io.StringIO()
    call_command("remove_demo", stdout=out)
    return out.getvalue()


def _rows():
    """Every content row but the lab settings, as (model label, pk)."""
    return {
        (model._meta.label, pk)
        for model in content.models_of()
        if model is not LabSettings
        for pk in model.objects.values_list("pk", flat=True)
    }


def test_remove_demo_leaves_exactly_what_the_lab_added(demo):
    page = PageFactory(title="Join our lab", slug="join-our-lab")
    paper = PublicationFactory(title="Our own first paper")

    said = _remove_demo()

    assert _rows() == {
        ("website.Page", page.pk),
        ("publications.Publication", paper.pk),
        ("publications.Venue", paper.venue_id),  # the factory's, added with the paper
    }
    assert "Removed the demo lab: 2 people," in said
    assert "53 publications" in said and "2 pages" in said and "5 menu items" in said


def test_remove_demo_takes_the_history_of_what_it_removes(demo):
    assert Person.history.exists()

    _remove_demo()

    assert not Person.history.exists()
    assert not Publication.history.exists()
    assert not Page.history.exists()


def test_remove_demo_takes_the_files_of_what_it_removes(demo):
    person = Person.objects.get(slug="teng-ma")
    person.photo = photo_upload()
    person.save()
    storage, names = person.photo.storage, [person.photo.name, person.photo_thumb.name]
    assert all(storage.exists(name) for name in names)

    with pytest.MonkeyPatch.context() as patch:
        # the files go once the removal commits; the test's transaction never does
        patch.setattr("django.db.transaction.on_commit", lambda f, *a, **k: f())
        _remove_demo()

    assert not any(storage.exists(name) for name in names)


def test_remove_demo_keeps_a_demo_page_an_admin_edited_and_names_it(demo, cast, signed_in):
    client = signed_in(cast["admin"])
    join_us = Page.objects.get(slug="join-us", parent=None)
    url = f"/admin/website/page/{join_us.pk}/change/"
    response = client.post(url, form_data(client.get(url), title="Join the Ren lab"))
    assert response.status_code == 302

    said = _remove_demo()

    assert list(Page.objects.values_list("title_en", flat=True)) == ["Join the Ren lab"]
    assert "Kept page “Join the Ren lab”: edited since the demo loaded it." in said
    assert not Person.objects.filter(slug="teng-ma").exists()


def test_remove_demo_keeps_a_demo_person_a_lab_post_still_names(demo):
    feng_ren = Person.objects.get(slug="feng-ren")
    author = PostAuthorFactory(person=feng_ren, post__title="Our lab's first post")

    said = _remove_demo()

    assert list(Person.objects.values_list("slug", flat=True)) == ["feng-ren"]
    assert author.post.authors.get().person == feng_ren
    assert "Kept person “Feng Ren”: author “" in said


def test_remove_demo_twice_removes_nothing_the_second_time(demo):
    _remove_demo()

    assert _remove_demo() == "No demo rows are left: nothing was removed.\n"


def test_remove_demo_gives_back_the_lab_settings_the_demo_filled_in(demo):
    settings = LabSettings.load()
    settings.tagline = "Our own tagline"
    settings.save()

    _remove_demo()

    settings = LabSettings.objects.get()
    assert settings.name == LabSettings._meta.get_field("name_en").get_default()
    assert settings.tagline == "Our own tagline"


def test_the_admin_counts_what_goes_before_removing_the_demo(demo, cast, signed_in):
    client = signed_in(cast["admin"])
    own = PersonFactory(name="Our Own Member", slug="our-own")

    index = client.get("/admin/").content.decode()
    page = client.get("/admin/remove-demo/").content.decode()

    assert 'href="/admin/remove-demo/"' in index
    assert "<tr><td>People</td><td>2</td></tr>" in page
    assert "<tr><td>Publications</td><td>53</td></tr>" in page
    assert Person.objects.count() == 5  # nothing goes before the confirmation

    response = client.post("/admin/remove-demo/")

    assert response.status_code == 302
    assert set(Person.objects.values_list("pk", flat=True)) == {
        own.pk,
        *Person.objects.filter(slug__in=["owner", "other"]).values_list("pk", flat=True),
    }
    assert not MenuItem.objects.exists()
    assert 'href="/admin/remove-demo/"' not in client.get("/admin/").content.decode()


def test_only_a_lab_admin_may_remove_the_demo(demo, cast, signed_in):
    member = signed_in(cast["owner"])

    assert member.get("/admin/remove-demo/").status_code == 403
    assert member.post("/admin/remove-demo/").status_code == 403
    assert Person.objects.filter(slug="teng-ma").exists()
    assert 'href="/admin/remove-demo/"' not in member.get("/admin/").content.decode()


def test_load_demo_if_empty_leaves_a_lab_that_started_empty_alone(db):
    UserFactory(username="admin")

    call_command("load_demo", "--if-empty", stdout=io.StringIO())

    assert not Person.objects.exists()
