"""A preprint and its journal version, found by two sources (arXiv names the DOI its paper
was published under; Crossref lists that paper), end as one paper in Chromium: the lab
admin accepts the journal version, and the preprint's review offers the merge into it,
already chosen; the paper then carries both identifiers, never two unrelated papers."""

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from harvest.matching import fold
from harvest.models import Candidate
from harvest.sources import arxiv, crossref
from publications.models import Publication
from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)
DATA = Path(__file__).parent.parent / "harvest" / "data"
TITLE = "Quantum criticality for extended nodes on a Bethe lattice in the large connectivity limit"


class CrossrefAnswer:
    def get_json(self, url, headers=None):
        return json.loads((DATA / "crossref-physrevb-85-115117.json").read_text())


def _arxiv_entry():
    """arXiv's recorded entry for 1111.2011v2, as its API answered it."""
    feed = ElementTree.parse(DATA / "real" / "arxiv-arxivpy-entries.atom").getroot()
    entries = feed.findall(f"{arxiv.ATOM}entry")
    return next(e for e in entries if e.findtext(f"{arxiv.ATOM}id").endswith("/1111.2011v2"))


def test_a_preprint_and_its_journal_version_from_two_sources_become_one_paper(
    lab_admin_page, live_server
):
    member = factories.PersonFactory(name="Adrian Del Maestro", orcid="0000-0002-1825-0097")
    preprint = arxiv.read_entry(_arxiv_entry(), print)
    journal = crossref.works(member, CrossrefAnswer(), print)
    fold([(member, preprint), *((member, found) for found in journal)])
    page = lab_admin_page

    # Two candidates, the preprint linked to its journal version, never two strangers
    from_arxiv = Candidate.objects.get(provenances__source="arxiv")
    from_crossref = Candidate.objects.get(provenances__source="crossref")
    assert from_arxiv.version_of_candidate == from_crossref
    page.goto(live_server.url + "/admin/harvest/candidate/")
    listing = page.inner_text("#result_list")
    assert listing.count("Quantum") == 2 and "a candidate" in listing

    page.click(f"text={TITLE} (2012)")
    page.click("button[value=accept]")
    page.wait_for_load_state()
    assert "is now one of the lab's papers" in page.inner_text(".messagelist")
    paper = Publication.objects.get()
    assert (paper.doi, paper.arxiv_id) == ("10.1103/physrevb.85.115117", "")

    page.goto(live_server.url + f"/admin/harvest/candidate/{from_arxiv.pk}/review/")
    content = page.inner_text("#content-main")
    assert "Another version of this work is in the lab:" in content or (
        "Another version of this work waits for review:" in content
    )
    assert TITLE in page.inner_text(".select2-selection")  # the merge is offered, chosen
    page.click("button[value=merge-preview]")
    page.wait_for_load_state()
    assert "Fills what the paper lacks:" in page.inner_text("#content-main")
    page.click("button[value=merge]")
    page.wait_for_load_state()

    assert "Merged into" in page.inner_text(".messagelist")
    paper.refresh_from_db()
    assert Publication.objects.count() == 1
    assert (paper.doi, paper.arxiv_id) == ("10.1103/physrevb.85.115117", "1111.2011")
    assert paper.status == Publication.Status.PUBLISHED
    assert Candidate.objects.get(pk=from_arxiv.pk).status == "merged"
    page.goto(live_server.url + paper.get_absolute_url())
    links = [a.get_attribute("href") for a in page.query_selector_all("main a")]
    assert "https://doi.org/10.1103/physrevb.85.115117" in links
    assert "https://arxiv.org/abs/1111.2011" in links


def test_accepting_the_preprint_after_its_journal_version_joins_them_in_one_paper(
    lab_admin_page, live_server
):
    member = factories.PersonFactory(name="Adrian Del Maestro", orcid="0000-0002-1825-0097")
    preprint = arxiv.read_entry(_arxiv_entry(), print)
    journal = crossref.works(member, CrossrefAnswer(), print)
    fold([(member, preprint), *((member, found) for found in journal)])
    from_arxiv = Candidate.objects.get(provenances__source="arxiv")
    page = lab_admin_page
    page.goto(live_server.url + "/admin/harvest/candidate/")
    page.click(f"text={TITLE} (2012)")
    page.click("button[value=accept]")
    page.wait_for_load_state()

    # plain Accept on the preprint: the preview names the paper it joins, and it joins it
    page.goto(live_server.url + f"/admin/harvest/candidate/{from_arxiv.pk}/review/")
    assert f"It joins “{TITLE}”, already in the lab: one paper." in page.inner_text("#content-main")
    page.click("button[value=accept]")
    page.wait_for_load_state()

    assert f"Accepted into “{TITLE}”" in page.inner_text(".messagelist")
    paper = Publication.objects.get()
    assert (paper.doi, paper.arxiv_id) == ("10.1103/physrevb.85.115117", "1111.2011")
    assert paper.status == Publication.Status.PUBLISHED
    assert Candidate.objects.get(pk=from_arxiv.pk).status == "merged"
