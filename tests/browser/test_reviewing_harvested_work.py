"""A lab admin reviews harvested work in Chromium: accepts one work as a new paper, and
merges another into the paper the lab already has, picked with the admin's search box."""

from pathlib import Path

import pytest

from harvest.matching import fold
from harvest.models import Candidate
from harvest.sources import dblp
from publications.models import Publication
from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)
DATA = Path(__file__).parent.parent / "harvest" / "data"


class Recorded:
    def get_text(self, url, headers=None):
        return (DATA / "dblp-person.xml").read_text()


def test_a_lab_admin_accepts_one_work_and_merges_another(lab_admin_page, live_server):
    member = factories.PersonFactory(name="Heather A. Piwowar", dblp_pid="p/HeatherAPiwowar")
    paper = factories.authored(
        member, ["Heather Piwowar", "Roger Day", "Douglas Fridsma"], at=1,
        title="Sharing detailed research data (the lab's own title)", date="2007",
    )  # fmt: skip
    fold([(member, found) for found in dblp.works(member, Recorded(), print)])
    page = lab_admin_page

    page.goto(live_server.url + "/admin/harvest/candidate/")
    page.click("text=Data reuse and the open data citation advantage (2013)")
    assert "A new paper." in page.inner_text("#content-main")
    page.click("button[value=accept]")
    page.wait_for_load_state()

    assert "is now one of the lab's papers" in page.inner_text(".messagelist")
    accepted = Publication.objects.get(title="Data reuse and the open data citation advantage")
    assert accepted.doi == "10.7717/peerj.175"

    sharing = Candidate.objects.get(title__startswith="Sharing Detailed")
    page.goto(live_server.url + f"/admin/harvest/candidate/{sharing.pk}/review/")
    page.click(".select2-selection")
    page.fill(".select2-search__field", "lab's own")
    page.click('.select2-results__option:has-text("lab\'s own title")')
    page.click("button[value=merge-preview]")
    page.wait_for_load_state()
    assert "Fills what the paper lacks:" in page.inner_text("#content-main")
    page.click("button[value=merge]")
    page.wait_for_load_state()

    assert "Merged into" in page.inner_text(".messagelist")
    paper.refresh_from_db()
    assert paper.doi == "10.1371/journal.pone.0000308"
    assert paper.title == "Sharing detailed research data (the lab's own title)"
    assert Candidate.objects.get(pk=sharing.pk).status == "merged"
