"""What Scholar, Zotero, feed readers and search engines receive: each read back by the
parser its consumer uses (bibtexparser, feedparser, a JSON-LD and HTML reading)."""

import json
import re

import bibtexparser
import feedparser
import pytest

from publications.models import Publication
from tests import factories

pytestmark = pytest.mark.django_db


def _bib(client, url):
    return bibtexparser.parse_string(client.get(url).content.decode()).entries


def _journal(issn="1553-3077, 1553-3093"):
    return factories.VenueFactory(
        short_name="ToS", name="ACM Transactions on Storage", kind="journal", issn=issn
    )


def test_bibtex_gives_the_month_as_bibtexs_own_macro_and_the_day(client, person):
    paper = factories.authored(person, ["T Ma"], at=1, date="2026-08-17", venue=_journal())

    text = client.get(f"/publications/{paper.slug}/export.bib").content.decode()
    entry = bibtexparser.parse_string(text).entries[0]

    assert re.search(r"^\s*month = aug,?$", text, re.M)  # a macro, not the string {8}
    assert entry["month"] == "aug" and entry["day"] == "17" and entry["year"] == "2026"


def test_the_journals_issn_reaches_bibtex_ris_csl_json_and_the_meta_tags(client, person):
    paper = factories.authored(person, ["T Ma"], at=1, venue=_journal(), kind="journal")
    base = f"/publications/{paper.slug}/"

    assert _bib(client, base + "export.bib")[0]["issn"] == "1553-3077, 1553-3093"
    assert "SN  - 1553-3077, 1553-3093" in client.get(base + "export.ris").content.decode()
    assert json.loads(client.get(base + "export.json").content)[0]["ISSN"] == (
        "1553-3077, 1553-3093"
    )
    html = client.get(base).content.decode()
    assert '<meta name="citation_issn" content="1553-3077">' in html
    assert '<meta name="citation_issn" content="1553-3093">' in html


def test_a_patent_page_carries_no_paper_tags_and_its_bibtex_key_is_its_own(client, person):
    patents = [
        factories.authored(
            person,
            ["T Ma"],
            at=1,
            title="",
            kind="patent",
            venue=None,
            patent_number=number,
            patent_jurisdiction="CN",
            date="2023",
        )
        for number in ("CN114253892A", "CN115080238B")
    ]

    html = client.get(patents[0].get_absolute_url()).content.decode()
    keys = [e.key for e in _bib(client, "/people/teng-ma/publications.bib")]

    assert "citation_" not in html
    data = json.loads(re.search(r'ld\+json">(.*?)</script>', html).group(1))
    assert data["@type"] == "CreativeWork" and data["identifier"] == "CN Patent CN114253892A"
    assert sorted(keys) == ["ma2023cn114253892a", "ma2023cn115080238b"]


def test_a_conference_paper_is_part_of_its_proceedings_not_of_an_event(client, person):
    venue = factories.VenueFactory(short_name="EuroSys", name="European Conference on Systems")
    paper = factories.authored(person, ["T Ma"], at=1, venue=venue)

    html = client.get(paper.get_absolute_url()).content.decode()
    data = json.loads(re.search(r'ld\+json">(.*?)</script>', html).group(1))

    assert data["@type"] == "ScholarlyArticle"
    assert data["isPartOf"] == {"@type": "Book", "name": "European Conference on Systems"}
    assert "PublicationEvent" not in html


def test_the_feed_is_in_publication_order_with_real_dates_and_clean_descriptions(client, person):
    factories.authored(person, ["T Ma"], at=1, date="2026-08-17", title="Newest Work")
    factories.authored(person, ["T Ma"], at=1, date="2025-03", title="Middle Work", venue=None)
    factories.authored(  # entered last, published first
        person, ["T Ma", "..."], at=1, date="2019", title="Old Work, Imported Last"
    )

    feed = feedparser.parse(client.get("/publications/feed/").content)
    items = {entry.title: entry for entry in feed.entries}

    titles = [e.title for e in feed.entries]
    assert titles == ["Newest Work", "Middle Work", "Old Work, Imported Last"]
    assert items["Newest Work"].published_parsed[:3] == (2026, 8, 17)
    assert items["Middle Work"].published_parsed[:3] == (2025, 3, 1)
    assert "published" not in items["Old Work, Imported Last"]  # a year alone: no made-up day
    for entry in feed.entries:
        assert not entry.summary.endswith(("..", " .")), entry.summary
        assert entry.link.endswith(Publication.objects.get(title=entry.title).get_absolute_url())


def test_a_profile_describes_its_person_for_search_engines_and_link_previews(client, person):
    person.title = "Staff Engineer"
    person.orcid = "0000-0002-1825-0097"
    person.save()
    factories.LinkFactory(person=person, kind="github", url="https://github.com/teng-ma")

    html = client.get("/people/teng-ma/").content.decode()
    data = json.loads(re.search(r'ld\+json">(.*?)</script>', html).group(1))

    assert data["@type"] == "Person" and data["name"] == "Teng Ma"
    assert data["alternateName"] == "马腾" and data["jobTitle"] == "Staff Engineer"
    assert data["sameAs"] == [
        "https://orcid.org/0000-0002-1825-0097",
        "https://github.com/teng-ma",
    ]
    assert '<meta property="og:type" content="profile">' in html
    assert '<meta property="og:title" content="Teng Ma / 马腾">' in html
    assert '<meta name="twitter:card" content="summary">' in html


def test_the_site_has_an_icon_of_its_initials(client):
    icon = client.get("/favicon.svg")

    assert icon["Content-Type"] == "image/svg+xml"
    assert ">OL</text>" in icon.content.decode()  # "Our Lab", the default name
    assert client.get("/favicon.ico").url == "/favicon.svg"
    assert '<link rel="icon" href="/favicon.svg">' in client.get("/").content.decode()


def test_computed_citation_figures_appear_only_when_most_papers_have_a_count(client, person):
    factories.authored(person, ["T Ma"], at=1, citation_count=27, citations_read_on="2026-12-01")
    for _ in range(3):
        factories.authored(person, ["T Ma"], at=1)
    factories.ReportedFigureFactory(person=person, label="h-index", value="13")

    sparse = client.get("/people/teng-ma/").content.decode()
    for paper in Publication.objects.all():
        paper.citation_count, paper.citations_read_on = 5, "2026-12-01"
        paper.save()
    covered = client.get("/people/teng-ma/").content.decode()

    assert "summed over" not in sparse and sparse.count("<dt>h-index</dt>") == 1
    assert "summed over the 4 of 4 papers" in covered


def test_names_in_any_script_and_group_authors_go_out_as_their_consumers_read_them(client, person):
    paper = factories.authored(person, ["T Ma"], at=1, title="Pooling Memory", date="2025")
    first = paper.authorships.get()
    first.given_name, first.family_name = "腾", "马"
    first.save()
    factories.AuthorshipFactory(
        publication=paper, position=2, given_name="", family_name="ETH Zürich Systems Group"
    )

    html = client.get(paper.get_absolute_url()).content.decode()
    data = json.loads(re.search(r'ld\+json">(.*?)</script>', html).group(1))
    entry = _bib(client, f"/publications/{paper.slug}/export.bib")[0]

    assert '<meta name="citation_author" content="马, 腾">' in html
    assert entry.key == "ma2025pooling"  # the surname kept, transliterated
    assert entry["author"] == "{马腾} and {ETH Zürich Systems Group}"  # family-first, whole
    assert [a["@type"] for a in data["author"]] == ["Person", "Organization"]


def test_a_papers_own_page_gives_full_names_and_says_and_others(client, person):
    paper = factories.authored(person, ["Yuxuan Wang", "Teng Ma", "..."], at=2)

    html = client.get(paper.get_absolute_url()).content.decode()
    authors = html[
        html.index('class="authors"') : html.index("</span></p>", html.index('class="authors"'))
    ]

    assert "Yuxuan Wang" in authors and "and others" in authors and "et al." not in authors


def test_a_preprint_is_a_preprint_everywhere(client, person):
    arxiv = factories.VenueFactory(short_name="arXiv", name="arXiv", kind="preprint")
    posted = factories.authored(person, ["T Ma"], at=1, kind="preprint", venue=arxiv)
    posted.arxiv_id = "2407.00079"
    posted.save()
    bare = factories.authored(
        person, ["T Ma"], at=1, kind="preprint", venue=None, date="2026", title="Bare Preprint"
    )
    bare.arxiv_id = "2601.00001"
    bare.save()

    html = client.get(posted.get_absolute_url()).content.decode()
    entry = _bib(client, f"/publications/{posted.slug}/export.bib")[0]
    csl = json.loads(client.get(f"/publications/{bare.slug}/export.json").content)[0]
    profile = client.get("/people/teng-ma/").content.decode()

    assert "citation_conference_title" not in html and "citation_journal_title" not in html
    assert '<meta name="citation_arxiv_id" content="2407.00079">' in html
    assert entry.entry_type == "misc" and entry["howpublished"] == "arXiv"
    assert (entry["eprint"], entry["archiveprefix"]) == ("2407.00079", "arXiv")
    data = json.loads(re.search(r'ld\+json">(.*?)</script>', html).group(1))
    assert "isPartOf" not in data and data["publisher"]["name"] == "arXiv"
    assert (csl["type"], csl.get("container-title"), csl["publisher"], csl["number"]) == (
        "article",
        None,  # the server is its publisher, not a journal it appeared in
        "arXiv",
        "arXiv:2601.00001",
    )
    assert "arXiv 2026" in profile[profile.index("Bare Preprint") :]


def test_every_dated_feed_item_carries_its_date_at_its_precision(client, person):
    factories.authored(person, ["T Ma"], at=1, date="2026-08-17", title="Day Work")
    factories.authored(person, ["T Ma"], at=1, date="2025-03", title="Month Work")
    factories.authored(person, ["T Ma"], at=1, date="2019", title="Year Work")
    factories.authored(person, ["T Ma"], at=1, date=None, title="Undated Work")

    feed = feedparser.parse(client.get("/publications/feed/").content)
    dates = {entry.title: entry.get("updated") for entry in feed.entries}  # dc:date

    assert not feed.bozo
    assert dates == {
        "Day Work": "2026-08-17",
        "Month Work": "2025-03",
        "Year Work": "2019",
        "Undated Work": None,
    }


def test_news_feed_items_carry_their_date_at_its_precision(client, person):
    factories.NewsItemFactory(person=person, date="2025-10", text_en="Joined the lab.")

    feed = feedparser.parse(client.get("/news/feed/").content)

    assert [entry.get("updated") for entry in feed.entries] == ["2025-10"]
