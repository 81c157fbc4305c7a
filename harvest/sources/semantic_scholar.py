"""A person's papers on Semantic Scholar, by their author id: the Academic Graph's
/author/{id}/papers, 100 a page through its offset paging, each paper with its external ids
(DOI, arXiv, DBLP, PubMed) and every author's Semantic Scholar id."""

import re
import urllib.parse

from django.conf import settings

from core.names import name_parts
from core.partial_dates import PartialDate
from harvest.models import Source
from harvest.sources import Found, Warn, capped, found_work
from people.models import Person
from publications.importing.http import JsonClient
from publications.importing.records import (
    AuthorRecord,
    Fields,
    ImportProblem,
    Kind,
    Record,
    arxiv_id_of_doi,
    check,
    clean_doi,
    page_range,
    stated_status,
)
from publications.importing.titles import clean_text
from publications.models import Publication

FIELDS = (
    "title,externalIds,venue,publicationVenue,journal,year,publicationDate,publicationTypes,authors"
)
LIMIT = 100
MAX_PAGES = 100  # 10,000 papers: more than any one person has
# Semantic Scholar's publication types that name a paper's kind; the others (an editorial, a
# letter, a news item, a study) say nothing of it, so the kind stays unknown.
KINDS = {
    "JournalArticle": Kind.JOURNAL,
    "Review": Kind.JOURNAL,
    "Conference": Kind.CONFERENCE,
    "Book": Kind.BOOK,
    "BookSection": Kind.CHAPTER,
}
# Its types of works that are no paper: counted in the run's report, not harvested.
SKIPPED = {"Dataset": "dataset"}
_ARXIV_VENUE = re.compile(r"^arxiv(?:\.org)?$", re.IGNORECASE)


def applies(person: Person) -> bool:
    return bool(person.semantic_scholar_id)


def works(person: Person, client: JsonClient, warn: Warn) -> list[Found]:
    found: list[Found] = []
    author = urllib.parse.quote(person.semantic_scholar_id, safe="")
    key = settings.SEMANTIC_SCHOLAR_API_KEY
    headers = {"x-api-key": key} if key else None
    offset = 0
    for _page in range(MAX_PAGES):
        query = urllib.parse.urlencode(
            {"fields": FIELDS, "offset": str(offset), "limit": str(LIMIT)}, safe=","
        )
        data = client.get_json(
            f"{settings.SEMANTIC_SCHOLAR_URL}/author/{author}/papers?{query}", headers
        )
        papers = data.get("data") if isinstance(data, dict) else None
        if not isinstance(papers, list):
            raise ImportProblem("Semantic Scholar's answer has no list of papers.")
        for paper in capped(papers, "Semantic Scholar", warn):
            item = read_paper(paper, warn)
            if item is not None:
                found.append(item)
        following = data.get("next")
        # the next offset must move forward: an answer repeating its offset would loop
        if not papers or not isinstance(following, int) or following <= offset:
            break
        offset = following
    return found


def read_paper(paper: object, warn: Warn) -> Found | None:
    record = Record(label="Semantic Scholar paper")
    data = Fields(paper, record)
    paper_id = data.text("paperId")
    if paper_id:
        record.label = f"Semantic Scholar paper {paper_id}"
    record.title = clean_text(data.text("title"))
    external = Fields(data.obj("externalIds"), record, "externalIds: ")
    record.doi = clean_doi(external.text("DOI"))
    record.arxiv_id = external.text("ArXiv") or arxiv_id_of_doi(record.doi)
    if pmid := external.text("PubMed"):
        record.source_fields["pmid"] = pmid
    types = [t for t in data.items("publicationTypes") if isinstance(t, str)]
    record.kind = next((KINDS[t] for t in types if t in KINDS), "")
    journal = Fields(data.obj("journal"), record, "journal: ")
    venue = Fields(data.obj("publicationVenue"), record, "publicationVenue: ")
    record.venue_name = clean_text(journal.text("name") or data.text("venue") or venue.text("name"))
    if not record.kind and record.arxiv_id and _ARXIV_VENUE.match(record.venue_name or "arxiv"):
        record.kind = Kind.PREPRINT  # listed on arXiv only: a preprint, as its venue says
    record.status = stated_status(record.kind)
    if record.kind == Kind.PREPRINT:
        record.status = Publication.Status.PREPRINT
    record.volume = journal.text("volume")
    record.pages = page_range(journal.text("pages").replace(" ", ""))
    record.date = _date(data.text("publicationDate"), data.whole_number("year"), record)
    for author in data.items("authors"):
        author = Fields(author, record, "author: ")
        given, family, suffix = name_parts(clean_text(author.text("name")))
        author_id = author.text("authorId")
        record.authors.append(
            AuthorRecord(
                given=given,
                family=family,
                suffix=suffix,
                ids={"semantic_scholar": author_id} if author_id else {},
            )
        )
    check(record)
    ids = {"doi": record.doi, "arxiv": record.arxiv_id, "dblp": external.text("DBLP")}
    skipped = next((SKIPPED[t] for t in types if t in SKIPPED), "")
    return found_work(Source.SEMANTIC_SCHOLAR, paper_id, record, ids, warn, skipped=skipped)


def _date(text: str, year: int | None, record: Record) -> PartialDate | None:
    try:
        return PartialDate.parse(text) if text else (PartialDate(year) if year else None)
    except (ValueError, OverflowError):
        record.dropped.append(f"date: unreadable “{text[:40]}”")
        try:
            return PartialDate(year) if year else None
        except (ValueError, OverflowError):
            return None
