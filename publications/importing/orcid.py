"""Reading a member's public ORCID works: those with a DOI are completed from Crossref."""

from collections.abc import Callable, Iterator

from django.conf import settings

from core.names import name_parts
from core.partial_dates import PartialDate
from people.models import Person
from publications.importing.crossref import fetch_doi
from publications.importing.http import JsonClient
from publications.importing.records import (
    AuthorRecord,
    Fields,
    ImportProblem,
    Kind,
    Record,
    check,
    clean_doi,
    stated_status,
)
from publications.importing.titles import clean_text
from publications.models import Publication

ORCID_WORKS = settings.ORCID_API_URL + "/{orcid}/works"
ORCID_KINDS = {
    "journal-article": Kind.JOURNAL,
    "conference-paper": Kind.CONFERENCE,
    "conference-poster": Kind.POSTER,
    "preprint": Kind.PREPRINT,
    "book-chapter": Kind.CHAPTER,
    "book": Kind.BOOK,
    "dissertation-thesis": Kind.THESIS,
    "dissertation": Kind.THESIS,
    "report": Kind.REPORT,
    "patent": Kind.PATENT,
}


def orcid_works(person: Person, client: JsonClient) -> Iterator[tuple[str | None, Record | None]]:
    """The person's ORCID work summaries (one request), each as (work, record) where `work`
    is a DOI to fetch from Crossref or None; ImportProblem if the list cannot be read."""
    if not person.orcid:
        raise ImportProblem(f"{person.name} has no ORCID iD on their profile.")
    data = client.get_json(ORCID_WORKS.format(orcid=person.orcid))
    groups = data.get("group") if isinstance(data, dict) else None
    if not isinstance(groups, list):
        raise ImportProblem(f"ORCID's answer for {person.orcid} has no works list.")
    for number, group in enumerate(groups, start=1):
        record = Record(label=f"ORCID work {number}")
        summaries = Fields(group, record).items("work-summary")
        if not summaries:
            if record.problems:
                yield None, record
            continue
        summary = Fields(summaries[0], record)
        ids: dict[str, str] = {}
        for entry in summary.obj("external-ids").get("external-id") or []:
            entry = Fields(entry, record, "external id: ")
            ids.setdefault(entry.text("external-id-type").lower(), entry.text("external-id-value"))
        if ids.get("doi") and clean_doi(ids["doi"]):
            yield clean_doi(ids["doi"]), None
            continue
        fill_from_summary(record, summary, ids, person)
        yield None, record


def read_orcid_works(
    person: Person, client: JsonClient, progress: Callable[[int, int], None] | None = None
) -> list[Record]:
    """Records for a person's public ORCID works, completing those with a DOI from Crossref
    (one request each); `progress(done, total)` is called as they come in."""
    works = list(orcid_works(person, client))
    records: list[Record] = []
    for done, (doi, record) in enumerate(works, start=1):
        if doi:
            records.append(fetch_doi(doi, client))
        elif record is not None:
            records.append(record)
        if progress:
            progress(done, len(works))
    return records


def fill_from_summary(record: Record, summary: Fields, ids: dict[str, str], person: Person) -> None:
    """What ORCID's summary of a work says (its list gives no authors: the person stands
    between unlisted ones), for a work without a DOI or for the harvester."""
    title = Fields(summary.obj("title"), record).obj("title")
    record.title = clean_text(Fields(title, record, "title: ").text("value"))
    if record.title:
        record.label = f"ORCID work “{record.title[:60]}”"
    # API 3.0 spells a type "journal-article", 2.x "JOURNAL_ARTICLE": both are read.
    record.kind = ORCID_KINDS.get(summary.text("type").lower().replace("_", "-"), "")
    record.status = stated_status(record.kind)
    record.venue_name = clean_text(Fields(summary.obj("journal-title"), record).text("value"))
    record.arxiv_id = ids.get("arxiv", "").removeprefix("arXiv:")
    given, family, suffix = name_parts(person.name)
    record.authors = [
        AuthorRecord(is_unlisted=True),
        AuthorRecord(given=given, family=family, suffix=suffix, orcid=person.orcid),
        AuthorRecord(is_unlisted=True),
    ]
    if record.kind == Kind.PREPRINT:
        record.status = Publication.Status.PREPRINT
        record.venue_name = record.venue_name or ("arXiv" if record.arxiv_id else "")
    date = summary.obj("publication-date")
    parts: list[int] = []
    for key in ("year", "month"):
        text = Fields(Fields(date, record).obj(key), record, f"{key}: ").text("value")
        if not text.isdigit() or (parts and int(text) == 0):
            break  # a month "00" is an unknown month: the year stands
        parts.append(int(text))
    try:
        record.date = PartialDate(*parts) if parts else None
    except (ValueError, OverflowError):
        record.dropped.append(f"date: unreadable “{'-'.join(map(str, parts))}”")
    check(record)
