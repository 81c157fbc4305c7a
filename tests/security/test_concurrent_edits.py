"""Two editors, one object: a save based on a stale page is refused and nothing is lost;
lab settings edited in one process show in the next request of every other."""

import re

import pytest
from django.test import Client

from lab.models import LabSettings
from tests import factories
from tests.admin_forms import form_data

pytestmark = pytest.mark.django_db


def _version(response):
    return re.search(r'name="_edit_version" value="([^"]+)"', response.content.decode())[1]


def test_a_save_on_a_stale_page_is_refused_with_what_changed_and_keeps_the_entry(cast):
    paper = factories.authored(None, ["A One", "B Two"], at=0, title="Original")
    url = f"/admin/publications/publication/{paper.pk}/change/"
    first, second = Client(), Client()
    first.force_login(cast["admin"])
    second.force_login(factories.UserFactory(username="root", is_superuser=True, is_staff=True))
    first_page, second_page = first.get(url), second.get(url)

    second.post(
        url,
        {
            **form_data(second_page, title="Second's title", **{"authorships-0-position": "2"}),
            "authorships-1-position": "1",
            "_edit_version": _version(second_page),
        },
    )
    stale = first.post(
        url,
        {**form_data(first_page, title="First's title"), "_edit_version": _version(first_page)},
    )

    paper.refresh_from_db()
    html = stale.content.decode()
    assert paper.title == "Second's title"
    assert [a.family_name for a in paper.authorships.order_by("position")] == ["Two", "One"]
    assert "saved by someone else after you opened this page" in html
    assert "root changed title" in html
    assert "the authorships were changed" in html
    assert 'value="First&#x27;s title"' in html  # what the first editor typed is still there

    again = first.post(url, {**form_data(stale), "_edit_version": _version(stale)})
    paper.refresh_from_db()
    assert again.status_code == 302
    assert paper.title == "First's title"


def test_lab_settings_edited_elsewhere_show_on_the_next_request(client):
    client.get("/")
    LabSettings.objects.filter(pk=1).update(name_en="Renamed Lab")  # another worker's save

    assert "Renamed Lab" in client.get("/").content.decode()
