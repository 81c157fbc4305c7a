"""A paper's status may be unknown: the admin's form offers no "Published" nobody chose, and
a paper whose status nobody stated shows none on its page, in lists and in exports."""

import json
import re

import pytest

from publications.models import Publication
from tests.admin_forms import form_data
from tests.factories import VenueFactory, authored

pytestmark = pytest.mark.django_db
ADD = "/admin/publications/publication/add/"


def test_the_admin_form_leaves_the_status_unknown_until_someone_states_it(admin_client):
    form = admin_client.get(ADD).content.decode()
    select = re.search(r'<select name="status"[^>]*>(.*?)</select>', form, re.S)[1]
    data = form_data(
        admin_client.get(ADD),
        title="A Paper Typed From a Home Page",
        kind="conference",
        venue=str(VenueFactory().pk),
        date="2020",
        **{"authorships-TOTAL_FORMS": "1"},
        **{"authorships-0-given_name": "T", "authorships-0-family_name": "Ma"},
    )

    assert '<option value="" selected>' in select
    assert '<option value="published" selected>' not in select
    assert data["status"] == ""
    response = admin_client.post(ADD, data)
    assert response.status_code == 302, response.context["errors"]
    assert Publication.objects.get(title="A Paper Typed From a Home Page").status == ""


@pytest.fixture
def unknown(db):
    return authored(None, ["T Ma"], at=0, title="Unknown Status", slug="unknown", status="")


def test_a_paper_of_unknown_status_shows_none_on_its_page_or_in_lists(client, unknown):
    page = client.get("/publications/unknown/").content.decode()
    listed = client.get("/publications/").content.decode()
    entry = re.search(r'<li class="pub".*?Unknown Status.*?</li>', listed, re.S)[0]

    kicker = re.search(r'<p class="paper__kicker">(.*?)</p>', page, re.S)[1]
    assert kicker.strip() == "Conference paper"
    assert "badge--status" not in entry
    for status in ("Published", "Accepted", "Preprint"):
        assert status not in entry


def test_a_paper_of_unknown_status_exports_none(client, unknown):
    bibtex = client.get("/publications/unknown/export.bib").content.decode()
    ris = client.get("/publications/unknown/export.ris").content.decode()
    item = json.loads(client.get("/publications/unknown/export.json").content)[0]

    assert "pubstate" not in bibtex and "status" not in item
    assert not re.search(r"published|accepted|in press|forthcoming", bibtex + ris, re.I)
