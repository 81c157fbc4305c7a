"""The readers on real answers recorded by other projects' test suites (tests/harvest/data/
real, named in SOURCES.md): every work read or named, none lost; titles clean; authors split
as the source gives them."""

import json
import re
import urllib.parse
from collections import Counter
from pathlib import Path

import pytest

from harvest.matching import fold
from harvest.models import Candidate, Provenance
from harvest.sources import (
    arxiv,
    crossref,
    datacite,
    dblp,
    europepmc,
    openalex,
    orcid,
    semantic_scholar,
)
from publications.importing.records import ImportProblem
from tests.factories import PersonFactory

pytestmark = pytest.mark.django_db

REAL = Path(__file__).parent / "data" / "real"
_NOT_CLEAN = re.compile(r"<[A-Za-z/]|&(?:#\d+|#x[\da-f]+|[a-z]+);|\$\S|\s{2}|^\s|\s$", re.I)


class Pages:
    """Crossref's answer: the recorded page, then the empty page that ends the cursor."""

    def __init__(self, name):
        self.pages = [
            json.loads((REAL / name).read_text()),
            {"message": {"items": [], "next-cursor": ""}},
        ]

    def get_json(self, url, headers=None):
        return self.pages.pop(0)


class Member:
    orcid = "0000-0002-1825-0097"
    name = "Someone"


def test_crossrefs_recorded_works_are_all_read_or_named_with_clean_titles():
    items = json.loads((REAL / "crossref-habanero-works.json").read_text())["message"]["items"]
    warnings = []

    found = crossref.works(Member(), Pages("crossref-habanero-works.json"), warnings.append)

    named = {w.split(":")[0] for w in warnings}
    skipped = {f"DOI {f.record.doi}": f.skipped for f in found if f.skipped}
    found = [f for f in found if not f.skipped]
    read = {f"DOI {f.record.doi}" for f in found}
    # 205 works: 167 read; 25 skipped as no paper (16 figures or tables, 8 datasets, an
    # issue); 13 named (chapters and news with no author)
    assert (len(items), len(found), len(skipped), len(named - read)) == (205, 167, 25, 13)
    assert Counter(skipped.values()) == {"component": 16, "dataset": 8, "journal-issue": 1}
    assert read | set(skipped) | named == {f"DOI {item['DOI'].lower()}" for item in items}
    raw = [item["title"][0] for item in items if item.get("title")]
    assert len([title for title in raw if _NOT_CLEAN.search(title)]) == 21  # <i>, <sub>, …
    assert [f.record.title for f in found if _NOT_CLEAN.search(f.record.title)] == []
    titles = {f.record.doi: f.record.title for f in found}
    assert titles["10.1039/d0ce00680g"] == (
        "Encapsulation of the [Ru(bpy)3]2+ luminophore in a unique hydrogen-bonded host framework"
    )
    by_doi = {item["DOI"].lower(): item for item in items}
    for work in found:
        given = [a.get("given", "") for a in by_doi[work.record.doi].get("author", [])]
        assert len(work.record.authors) == len(given)


class Answers:
    """A service's recorded answers, handed out in the order the reader asks for them."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.asked = []

    def get_json(self, url, headers=None):
        self.asked.append(url)
        return self.answers.pop(0)

    def get_text(self, url, headers=None):
        self.asked.append(url)
        return self.answers.pop(0)


class Recorded:
    """The member whose works are read: every identity set, so each reader applies."""

    orcid = "0000-0002-1825-0097"
    openalex_id = ""
    dblp_pid = "95/7448-1"
    arxiv_author_id = "del_maestro_a_1"
    semantic_scholar_id = "2262347"
    name = "Adrian Del Maestro"


def _read(module, *answers, asked=None):
    """(works read, works skipped as no paper, labels named in the report) of one reader;
    the addresses it asked for are added to `asked`."""
    warnings = []
    client = Answers(*answers)
    found = module.works(Recorded(), client, warnings.append)
    if asked is not None:
        asked += client.asked
    return [f for f in found if not f.skipped], [f for f in found if f.skipped], warnings


def _split(found, name):
    """(given, family) of every author called `name` (given and family joined) in `found`."""
    return {
        (author.given, author.family)
        for work in found
        for author in work.record.authors
        if f"{author.given} {author.family}" == name
    }


def test_openalexs_recorded_works_are_all_read_or_named_with_clean_titles():
    results = json.loads((REAL / "openalex-openalexpro-works.json").read_text())["results"]
    page = {"meta": {"next_cursor": None}, "results": results}

    read, skipped, named = _read(openalex, page)

    # 177 works: 164 read, 3 paratext skipped, 10 named (books and editorials no one wrote)
    assert (len(results), len(read), len(skipped), len(named)) == (177, 164, 3, 10)
    assert {f.skipped for f in skipped} == {"paratext"}
    assert all(message.endswith("it lists no authors") for message in named)
    ids = {f"OpenAlex work {f.source_id}" for f in read + skipped}
    ids |= {message.split(":")[0] for message in named}
    assert ids == {"OpenAlex work " + work["id"].rsplit("/", 1)[-1] for work in results}
    assert [f.record.title for f in read if _NOT_CLEAN.search(f.record.title)] == []
    by_id = {work["id"].rsplit("/", 1)[-1]: work for work in results}
    for work in read:  # every authorship kept, in order, each name whole
        raw = [
            a.get("raw_author_name") or a["author"]["display_name"]
            for a in by_id[work.source_id]["authorships"]
        ]
        joined = [f"{a.given} {a.family}".strip() for a in work.record.authors]
        assert joined == [" ".join(name.split()) for name in raw]
    assert _split(read, "J.A.C. van Burg") == {("J.A.C.", "van Burg")}
    assert _split(read, "Jerome Delli Priscoli") == {("Jerome", "Delli Priscoli")}
    assert _split(read, "Vincent Larivière") == {("Vincent", "Larivière")}
    # What OpenAlex does not say stays unsaid: an "article" in a repository has no kind
    kinds = {(f.record.kind, f.record.status) for f in read}
    assert ("", "") in kinds and ("journal", "published") in kinds


def test_arxivs_recorded_entries_are_read_with_journal_dois_and_particles_kept():
    feed = (REAL / "arxiv-arxivpy-entries.atom").read_text()

    read, skipped, named = _read(arxiv, feed)

    assert (feed.count("<entry"), len(read), len(skipped), len(named)) == (117, 117, 0, 0)
    assert [f.record.title for f in read if _NOT_CLEAN.search(f.record.title)] == []
    assert {f.record.kind for f in read} == {"preprint"}
    # 44 entries name their journal version's DOI: kept for the review and the link
    with_doi = [f for f in read if f.published_doi]
    assert len(with_doi) == 44
    assert all(f.record.source_fields["journal_doi"] == f.published_doi for f in with_doi)
    maestro = [
        f for f in read if _split([f], "Adrian Del Maestro") or _split([f], "A. Del Maestro")
    ]
    assert len(maestro) == 12 and all(f.published_doi for f in maestro)
    assert _split(read, "Adrian Del Maestro") == {("Adrian", "Del Maestro")}
    assert _split(read, "Sean van der Merwe") == {("Sean", "van der Merwe")}
    assert _split(read, "Giuseppe Di Battista") == {("Giuseppe", "Di Battista")}
    assert _split(read, "José Raúl Romero") == {("José Raúl", "Romero")}
    for work in read:
        assert len(work.record.authors) == feed.split(work.source_id, 1)[1].split("</entry>", 1)[
            0
        ].count("<name>")


def test_dblps_recorded_person_pages_are_read_or_named_with_homonym_numbers_dropped():
    person = (REAL / "dblp-openreview-95-7448-1.xml").read_text()
    excerpt = (REAL / "dblp-dump-excerpt.xml").read_text()

    read, skipped, named = _read(dblp, person)
    more, more_skipped, more_named = _read(dblp, excerpt)

    assert (len(read), len(skipped), len(named)) == (8, 0, 0)
    # The encyclopedia's 131 entries: 55 signed ones read, 76 unsigned ones named
    assert (len(more), len(more_skipped), len(more_named)) == (55, 0, 76)
    assert all(message.endswith("it lists no authors") for message in more_named)
    read += more
    assert [f.record.title for f in read if _NOT_CLEAN.search(f.record.title)] == []
    assert not any(f.record.title.endswith(".") for f in read)
    assert _split(read, "Di Xu") == {("Di", "Xu")}  # "Di Xu 0001"
    assert _split(read, "Lino Coria-Mendoza") == {("Lino", "Coria-Mendoza")}
    assert _split(read, "Jürgen Beyerer") == {("Jürgen", "Beyerer")}
    assert all(f.record.doi.startswith("10.") for f in read)


def test_orcids_recorded_work_lists_are_read_with_kinds_of_either_api_version():
    lists = sorted(REAL.glob("orcid-dissemin-*-works.json"))
    read, named, left_out = [], [], Counter()
    for path in lists:
        works, skipped, warnings = _read(orcid, json.loads(path.read_text()))
        left_out.update(f.skipped for f in skipped)
        read += works
        named += warnings

    # 245 works, all read: the poster among them is a poster, which the lab's settings
    # bring into the review queue or leave out (tests/harvest/test_harvested_kinds.py)
    assert (len(lists), len(read), left_out) == (8, 245, {})
    assert Counter(f.record.kind for f in read)["poster"] == 1
    # Two works dated year "0" come in without their date, named in the report
    assert len(named) == 2 and all("kept without its date" in message for message in named)
    assert [f.record.title for f in read if _NOT_CLEAN.search(f.record.title)] == []
    kinds = Counter(f.record.kind for f in read)
    assert (kinds["journal"], kinds["conference"], kinds["chapter"], kinds[""]) == (159, 48, 13, 17)
    for work in read:  # ORCID lists no co-authors: the member stands between unlisted ones
        unlisted, member, after = work.record.authors
        assert unlisted.is_unlisted and after.is_unlisted
        assert (member.given, member.family, member.orcid) == (
            "Adrian",
            "Del Maestro",
            Recorded.orcid,
        )


def _every_real_work():
    """{source: works read} over every recorded answer above."""
    crossref_page = json.loads((REAL / "crossref-habanero-works.json").read_text())
    end = {"message": {"items": [], "next-cursor": ""}}
    openalex_page = {
        "meta": {"next_cursor": None},
        "results": json.loads((REAL / "openalex-openalexpro-works.json").read_text())["results"],
    }
    works = {
        "crossref": _read(crossref, crossref_page, end)[0],
        "openalex": _read(openalex, openalex_page)[0],
        "arxiv": _read(arxiv, (REAL / "arxiv-arxivpy-entries.atom").read_text())[0],
        "dblp": _read(dblp, (REAL / "dblp-openreview-95-7448-1.xml").read_text())[0]
        + _read(dblp, (REAL / "dblp-dump-excerpt.xml").read_text())[0],
        "orcid": [],
    }
    for path in sorted(REAL.glob("orcid-dissemin-*-works.json")):
        works["orcid"] += _read(orcid, json.loads(path.read_text()))[0]
    return works


def test_every_real_work_becomes_a_candidate_or_joins_one_and_none_is_lost(
    django_assert_max_num_queries,
):
    member = PersonFactory(name="Adrian Del Maestro", orcid=Recorded.orcid)
    works = _every_real_work()
    pairs = [(member, found) for source in works.values() for found in source]

    # 756 works, 743 distinct: the candidates and their history rows written in bulk (a
    # statement per 58 rows on SQLite), and so are their ids, provenances, people, and the
    # 132 preprints' links to other versions (56 queries; 1,529 when each was saved alone)
    with django_assert_max_num_queries(40 + 743 // 20):
        outcome = fold(pairs)

    per_source = {source: len(found) for source, found in works.items()}
    assert per_source == {"crossref": 167, "openalex": 164, "arxiv": 117, "dblp": 63, "orcid": 245}
    assert dict(outcome.new) == per_source and outcome.problems == []
    assert Candidate.objects.count() == outcome.works == 743
    kept = set(Provenance.objects.values_list("source", "source_id"))
    assert kept == {(f.source, f.source_id) for _, f in pairs}  # none lost
    assert fold(pairs).works == 0  # and a second run adds none


def _json(name):
    return json.loads((REAL / name).read_text())


def test_semantic_scholars_recorded_papers_are_read_with_every_authors_id():
    page = _json("semanticscholar-author-2262347-papers.json")

    read, skipped, named = _read(semantic_scholar, page)

    # Alan Turing's 60 papers as Semantic Scholar lists them: all read, none left out
    assert (len(page["data"]), len(read), len(skipped), len(named)) == (60, 60, 0, 0)
    assert [f.record.title for f in read if _NOT_CLEAN.search(f.record.title)] == []
    by_id = {paper["paperId"]: paper for paper in page["data"]}
    for work in read:  # every author kept, in order, with their Semantic Scholar id
        listed = by_id[work.source_id]["authors"]
        assert [a.ids.get("semantic_scholar") for a in work.record.authors] == [
            a["authorId"] for a in listed
        ]
        assert "2262347" in [a["authorId"] for a in listed]
    # The external ids: 32 DOIs, 11 DBLP keys, one PubMed id kept by name
    assert sum(1 for f in read if f.ids.get("doi")) == 32
    assert sum(1 for f in read if f.ids.get("dblp")) == 11
    assert [f.record.source_fields["pmid"] for f in read if "pmid" in f.record.source_fields]
    # A kind only where its types say one; what they do not say stays unsaid
    kinds = Counter(f.record.kind for f in read)
    assert kinds == {"": 42, "journal": 18}
    cryptologia = next(f for f in read if f.record.doi == "10.1080/01611194.2019.1650846")
    assert (cryptologia.record.venue_name, cryptologia.record.volume) == ("Cryptologia", "44")
    assert cryptologia.ids["dblp"] == "journals/cryptologia/X20"


def test_semantic_scholars_pages_are_followed_to_the_last_and_titles_alone_are_named():
    pages = _json("semanticscholar-author-1723755-papers-pages.json")
    asked = []

    read, skipped, named = _read(semantic_scholar, *pages, asked=asked)

    # Nine recorded pages (offsets 0 to 800, the last without "next"), asked for titles
    # only: 875 papers without their authors, each named, none half-written
    assert [urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["offset"] for url in asked] == [
        [str(offset)] for offset in range(0, 900, 100)
    ]
    assert (len(read), len(skipped), len(named)) == (0, 0, 875)
    assert all(message.endswith("it lists no authors") for message in named)


def test_semantic_scholars_paging_stops_on_an_offset_that_does_not_move_on():
    page = _json("semanticscholar-author-2262347-papers.json") | {"offset": 0, "next": 0}

    read, _, _ = _read(semantic_scholar, page)

    assert len(read) == 60  # one request: an answer sending it back to 0 does not loop


def test_europe_pmcs_recorded_core_answer_is_read_with_orcids_and_pubmed_ids():
    core = _json("europepmc-pyeuropepmc-search-core.json")
    end = _json("europepmc-pyeuropepmc-search-end.json")
    asked = []

    read, skipped, named = _read(europepmc, core, end, asked=asked)

    results = core["resultList"]["result"]
    # 25 records: 23 read, 2 errata left out (counted by kind), none named
    assert (len(results), len(read), len(skipped), len(named)) == (25, 23, 2, 0)
    assert {f.skipped for f in skipped} == {"erratum"}
    # its cursor followed once, to the answer that ends it
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(asked[1]).query)
    assert query["cursorMark"] == [core["nextCursorMark"]]
    assert query["query"] == [f'AUTHORID:"{Recorded.orcid}"'] and query["resultType"] == ["core"]
    assert [f.record.title for f in read if _NOT_CLEAN.search(f.record.title)] == []
    assert not any(f.record.title.endswith(".") for f in read)
    by_id = {f"{r['source']}:{r['id']}": r for r in results}
    for work in read:
        listed = by_id[work.source_id]["authorList"]["author"]
        assert len(work.record.authors) == len(listed)
        assert work.record.source_fields["pmid"] == by_id[work.source_id]["pmid"]
    orcids = [a.orcid for f in read for a in f.record.authors if a.orcid]
    assert len(orcids) == 30
    lancet = read[0].record
    assert (lancet.authors[0].given, lancet.authors[0].family) == ("Jonathan D", "Schoenfeld")
    assert (lancet.venue_name, lancet.kind, lancet.date.isoformat()) == (
        "Lancet (London, England)",
        "journal",
        "2025-12-01",
    )


def test_europe_pmcs_lite_answer_reads_the_printed_names_family_first():
    lite = _json("europepmc-pyeuropepmc-search-lite.json")

    read, skipped, named = _read(europepmc, lite, _json("europepmc-pyeuropepmc-search-end.json"))

    # 25 records without their author list: 24 read from the printed names, one with none
    assert (len(read), len(skipped), len(named)) == (24, 0, 1)
    assert named[0].endswith("it lists no authors")
    first = read[0].record.authors[:3]
    assert [(a.given, a.family) for a in first] == [
        ("JD", "Schoenfeld"),
        ("DA", "Haas-Kogan"),
        ("AF", "O'Neill"),
    ]


def test_datacites_recorded_dois_are_read_and_datasets_and_software_left_out_by_kind():
    joined = _json("datacite-commonmeta-dois.json")
    page = _json("datacite-rdatacite-dois-page.json")

    read, skipped, named = _read(datacite, joined)
    more, more_skipped, more_named = _read(
        datacite, page, _json("datacite-rdatacite-dois-page-emptied.json")
    )

    # 16 DOIs: 7 papers read (2 arXiv preprints, an article, a LIPIcs paper, 3 texts with
    # no kind); 6 datasets and 3 software left out, counted by kind; none named
    assert (len(read) + len(more), len(named) + len(more_named)) == (7, 0)
    assert Counter(f.skipped for f in skipped + more_skipped) == {"dataset": 6, "software": 3}
    kinds = Counter(f.record.kind for f in read + more)
    assert kinds == {"preprint": 2, "journal": 1, "conference": 1, "": 3}
    preprint = next(f for f in read if f.record.doi == "10.48550/arxiv.1902.02534")
    assert (preprint.record.arxiv_id, preprint.record.status) == ("1902.02534", "preprint")
    # Creators' ORCIDs are read (on the datasets left out, as on any work)
    figshare = next(f for f in skipped if f.record.doi == "10.6084/m9.figshare.1449060")
    assert "0000-0002-2874-287X" in [a.orcid for a in figshare.record.authors]
    assert [f.record.title for f in read + more if _NOT_CLEAN.search(f.record.title)] == []


@pytest.mark.parametrize(
    ("module", "name", "shape"),
    [
        (semantic_scholar, "semanticscholar-author-2262347-papers.json", "data"),
        (europepmc, "europepmc-pyeuropepmc-search-core.json", "resultList.result"),
        (datacite, "datacite-commonmeta-dois.json", "data"),
    ],
)
def test_an_unreadable_item_among_real_ones_is_named_and_the_rest_come_in(module, name, shape):
    answer = _json(name)
    holder = answer
    *path, key = shape.split(".")
    for part in path:
        holder = holder[part]
    good = len(
        _read(module, json.loads(json.dumps(answer)), {"data": [], "resultList": {"result": []}})[0]
    )
    holder[key] = [42, "garbage", {"title": ["not", "text"], "authors": "nobody"}, *holder[key]]

    read, _, named = _read(module, answer, {"data": [], "resultList": {"result": []}})

    assert len(read) == good and len(named) == 3  # each named, nothing half-written


def test_the_new_sources_real_works_become_candidates_for_their_member():
    turing = PersonFactory(name="Alan Turing", semantic_scholar_id="2262347")
    works = {
        "semantic_scholar": _read(
            semantic_scholar, _json("semanticscholar-author-2262347-papers.json")
        )[0],
        "europepmc": _read(
            europepmc,
            _json("europepmc-pyeuropepmc-search-core.json"),
            _json("europepmc-pyeuropepmc-search-end.json"),
        )[0],
        "datacite": _read(datacite, _json("datacite-commonmeta-dois.json"))[0],
    }
    pairs = [(turing, found) for source in works.values() for found in source]

    outcome = fold(pairs)

    assert {s: len(f) for s, f in works.items()} == {
        "semantic_scholar": 60,
        "europepmc": 23,
        "datacite": 4,
    }
    assert dict(outcome.new) == {"semantic_scholar": 60, "europepmc": 23, "datacite": 4}
    assert outcome.problems == [] and Candidate.objects.count() == outcome.works == 87
    # The member is on every Semantic Scholar paper by his id there
    papers = Candidate.objects.filter(provenances__source="semantic_scholar")
    assert all(
        any(a.get("ids", {}).get("semantic_scholar") == "2262347" for a in c.record["authors"])
        for c in papers
    )
    assert fold(pairs).works == 0  # and a second run adds none


@pytest.mark.parametrize("module", [semantic_scholar, europepmc, datacite])
@pytest.mark.parametrize("answer", [[], "busy", {"data": "none", "resultList": {"result": 3}}])
def test_an_answer_that_is_no_list_of_works_is_a_problem_of_that_source(module, answer):
    with pytest.raises(ImportProblem, match="answer has no list"):
        _read(module, answer)
