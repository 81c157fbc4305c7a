"""A person's works on Europe PMC (the life sciences: PubMed, PubMed Central, preprints), those
its search links to their ORCID iD (the AUTHORID field), 500 a page through its cursor. The
"core" answer gives each author apart, with their ORCID where Europe PMC knows it."""

import re
import urllib.parse

from django.conf import settings

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
    check,
    clean_doi,
    clean_orcid,
    page_range,
    stated_status,
    valid_issns,
)
from publications.importing.titles import clean_text
from publications.models import Publication

PAGE_SIZE = 500  # a "core" record is about 10 kB: 5 MB a page, well within the size bound
MAX_PAGES = 20  # 10,000 records
# Europe PMC's sources whose works are of one kind; a PubMed or PMC record is a journal's
# article when its types say so.
SOURCE_KINDS = {"PPR": Kind.PREPRINT, "ETH": Kind.THESIS}
ARTICLE_TYPES = {"journal article", "research-article", "review-article", "review"}
# Its types of records that are no one's paper: counted in the report, not harvested.
SKIPPED = {"published erratum": "erratum", "retraction of publication": "retraction"}
_INITIALS_LAST = re.compile(r"^(.+?)\s+([A-Z]{1,4})$")  # "Schoenfeld JD", as PubMed prints


def applies(person: Person) -> bool:
    return bool(person.orcid)


def works(person: Person, client: JsonClient, warn: Warn) -> list[Found]:
    found: list[Found] = []
    cursor = "*"
    for _page in range(MAX_PAGES):
        query = urllib.parse.urlencode(
            {
                "query": f'AUTHORID:"{person.orcid}"',
                "resultType": "core",
                "format": "json",
                "pageSize": str(PAGE_SIZE),
                "cursorMark": cursor,
            }
        )
        data = client.get_json(f"{settings.EUROPEPMC_URL}/search?{query}")
        listing = data.get("resultList") if isinstance(data, dict) else None
        results = listing.get("result") if isinstance(listing, dict) else None
        if not isinstance(results, list):
            raise ImportProblem("Europe PMC's answer has no list of results.")
        for result in capped(results, "Europe PMC", warn):
            item = read_result(result, warn)
            if item is not None:
                found.append(item)
        following = data.get("nextCursorMark")
        if not results or not isinstance(following, str) or following in ("", cursor):
            break
        cursor = following
    return found


def read_result(result: object, warn: Warn) -> Found | None:
    record = Record(label="Europe PMC record")
    data = Fields(result, record)
    source, number = data.text("source"), data.text("id")
    source_id = f"{source}:{number}" if source and number else ""
    if source_id:
        record.label = f"Europe PMC {source_id}"
    record.title = clean_text(data.text("title")).removesuffix(".")
    record.doi = clean_doi(data.text("doi"))
    for name in ("pmid", "pmcid"):  # no home on a paper: kept with it by name
        if value := data.text(name):
            record.source_fields[name] = value
    types = {
        t.casefold()
        for t in Fields(data.obj("pubTypeList"), record).items("pubType")
        if isinstance(t, str)
    }
    journal_info = Fields(data.obj("journalInfo"), record, "journalInfo: ")
    journal = Fields(journal_info.obj("journal"), record, "journal: ")
    record.kind = SOURCE_KINDS.get(source, "")
    if not record.kind and types & ARTICLE_TYPES and journal.text("title"):
        record.kind = Kind.JOURNAL
    record.status = stated_status(record.kind)
    if record.kind == Kind.PREPRINT:
        record.status = Publication.Status.PREPRINT
        book = Fields(data.obj("bookOrReportDetails"), record, "bookOrReportDetails: ")
        record.venue_name = clean_text(book.text("publisher"))
    else:
        record.venue_name = clean_text(journal.text("title"))
    record.issns = valid_issns(
        [journal.text("issn"), journal.text("essn"), journal.text("ISSN"), journal.text("ESSN")]
    )
    record.volume, record.issue = journal_info.text("volume"), journal_info.text("issue")
    record.pages = page_range(data.text("pageInfo"))
    record.date = _date(data.text("firstPublicationDate"), data.text("pubYear"), record)
    listed = Fields(data.obj("authorList"), record, "authorList: ").items("author")
    if listed:
        record.authors = [_author(author, record) for author in listed]
    else:  # a "lite" answer: the names printed in one line, family name and initials
        printed = data.text("authorString").removesuffix(".")
        record.authors = [_initials_last(name) for name in printed.split(", ") if name.strip()]
    check(record)
    ids = {"doi": record.doi}
    skipped = next((SKIPPED[t] for t in sorted(types) if t in SKIPPED), "")
    return found_work(Source.EUROPEPMC, source_id, record, ids, warn, skipped=skipped)


def _author(author: object, record: Record) -> AuthorRecord:
    data = Fields(author, record, "author: ")
    known = Fields(data.obj("authorId"), record, "authorId: ")
    orcid = clean_orcid(known.text("value")) if known.text("type") == "ORCID" else ""
    if collective := clean_text(data.text("collectiveName")):
        return AuthorRecord(family=collective)
    given, family = clean_text(data.text("firstName")), clean_text(data.text("lastName"))
    if not family:
        named = _initials_last(clean_text(data.text("fullName")))
        given, family = named.given, named.family
    return AuthorRecord(given=given, family=family, orcid=orcid)


def _initials_last(name: str) -> AuthorRecord:
    """ "Schoenfeld JD" → ("JD", "Schoenfeld"): PubMed's order, family name first."""
    name = clean_text(name)
    match = _INITIALS_LAST.match(name)
    return AuthorRecord(given=match[2], family=match[1]) if match else AuthorRecord(family=name)


def _date(text: str, year: str, record: Record) -> PartialDate | None:
    """Its first publication date, else its year; neither readable: none, and the report
    names it."""
    for value in (text, year):
        if not value:
            continue
        try:
            return PartialDate.parse(value)
        except (ValueError, OverflowError):
            continue
    if text or year:
        record.dropped.append(f"date: unreadable “{(text or year)[:40]}”")
    return None
