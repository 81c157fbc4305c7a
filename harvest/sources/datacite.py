"""A person's works registered at DataCite (datasets and software, and the papers repositories
register: Zenodo, figshare, arXiv's own DOIs, proceedings series), found by their ORCID iD among
the creators, 100 a page by page number. A dataset or software is its own kind where the lab's
papers have one, else left out and counted in the run's report."""

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
    clean_orcid,
    stated_status,
)
from publications.importing.titles import clean_text
from publications.models import Publication

PAGE_SIZE = 100
MAX_PAGES = 20  # 2,000 DOIs: more than any one person registers
# DataCite's resourceTypeGeneral that name a paper's kind; "Text" and "Other" say nothing.
KINDS = {
    "JournalArticle": Kind.JOURNAL,
    "ConferencePaper": Kind.CONFERENCE,
    "ConferenceProceeding": Kind.CONFERENCE,
    "Preprint": Kind.PREPRINT,
    "Book": Kind.BOOK,
    "BookChapter": Kind.CHAPTER,
    "Dissertation": Kind.THESIS,
    "Report": Kind.REPORT,
}
# Its types of works that are no paper, by the name the run's report counts them under.
# Datasets and software become papers of their own kind only where `Publication.Kind` has one.
SKIPPED = {
    "Dataset": "dataset",
    "Software": "software",
    "ComputationalNotebook": "software",
    "Model": "software",
    "Workflow": "software",
    "Image": "image",
    "Audiovisual": "audiovisual",
    "Sound": "audiovisual",
    "Collection": "collection",
    "PhysicalObject": "other research output",
    "Instrument": "other research output",
    "InteractiveResource": "other research output",
    "Service": "other research output",
    "Event": "event",
    "PeerReview": "peer review",
    "OutputManagementPlan": "other research output",
    "StudyRegistration": "other research output",
}


def applies(person: Person) -> bool:
    return bool(person.orcid)


def works(person: Person, client: JsonClient, warn: Warn) -> list[Found]:
    found: list[Found] = []
    query = f'creators.nameIdentifiers.nameIdentifier:"https://orcid.org/{person.orcid}"'
    for number in range(1, MAX_PAGES + 1):
        params = {"query": query, "page[size]": str(PAGE_SIZE), "page[number]": str(number)}
        data = client.get_json(f"{settings.DATACITE_URL}/dois?{urllib.parse.urlencode(params)}")
        items = data.get("data") if isinstance(data, dict) else None
        if not isinstance(items, list):
            raise ImportProblem("DataCite's answer has no list of DOIs.")
        for item in capped(items, "DataCite", warn):
            work = read_doi(item, warn)
            if work is not None:
                found.append(work)
        links = data.get("links")
        if not items or not isinstance(links, dict) or not links.get("next"):
            break
    return found


def read_doi(item: object, warn: Warn) -> Found | None:
    record = Record(label="DataCite DOI")
    outer = Fields(item, record)
    data = Fields(outer.obj("attributes"), record, "attributes: ")
    record.doi = clean_doi(data.text("doi") or outer.text("id"))
    if record.doi:
        record.label = f"DataCite DOI {record.doi}"
    titles = [Fields(t, record, "title: ").text("title") for t in data.items("titles")]
    record.title = clean_text(next((t for t in titles if t), ""))
    general = Fields(data.obj("types"), record, "types: ").text("resourceTypeGeneral")
    record.kind = KINDS.get(general, "")
    skipped = SKIPPED.get(general, "")
    if skipped in Publication.Kind.values:  # the lab's papers have that kind: one of them
        record.kind, skipped = skipped, ""
    record.status = stated_status(record.kind)
    if record.kind == Kind.PREPRINT:
        record.status = Publication.Status.PREPRINT
    record.arxiv_id = arxiv_id_of_doi(record.doi)
    container = Fields(data.obj("container"), record, "container: ")
    publisher = data.data.get("publisher")  # a name, or {"name": …} in newer answers
    publisher = publisher.get("name") if isinstance(publisher, dict) else publisher
    record.publisher = clean_text(publisher) if isinstance(publisher, str) else ""
    record.venue_name = clean_text(container.text("title")) or (
        record.publisher if record.kind == Kind.PREPRINT else ""
    )
    record.volume, record.issue = container.text("volume"), container.text("issue")
    record.date = _date(data, record)
    for creator in data.items("creators"):
        record.authors.append(_creator(Fields(creator, record, "creator: ")))
    record.url = data.text("url") if data.text("url").startswith(("http://", "https://")) else ""
    check(record)
    ids = {"doi": record.doi, "arxiv": record.arxiv_id}
    return found_work(
        Source.DATACITE,
        record.doi,
        record,
        ids,
        warn,
        published_doi=_related(data, "IsPreprintOf"),
        preprint_doi=_related(data, "HasPreprint"),
        skipped=skipped,
    )


def _creator(creator: Fields) -> AuthorRecord:
    orcid = ""
    for entry in creator.items("nameIdentifiers"):
        entry = Fields(entry, creator.record, "nameIdentifier: ")
        if entry.text("nameIdentifierScheme").upper() == "ORCID":
            orcid = orcid or clean_orcid(entry.text("nameIdentifier"))
    name = clean_text(creator.text("name"))
    if creator.text("nameType") == "Organizational":
        return AuthorRecord(family=name)
    given, family = clean_text(creator.text("givenName")), clean_text(creator.text("familyName"))
    suffix = ""
    if not family:  # "Family, Given" as DataCite prints a personal name
        given, family, suffix = name_parts(name)
    return AuthorRecord(given=given, family=family, suffix=suffix, orcid=orcid)


def _date(data: Fields, record: Record) -> PartialDate | None:
    """The date it was issued, else its publication year."""
    for entry in data.items("dates"):
        entry = Fields(entry, record, "date: ")
        if entry.text("dateType") == "Issued":
            try:
                return PartialDate.parse(entry.text("date")[:10])
            except (ValueError, OverflowError):
                break
    year = data.text("publicationYear")
    try:
        return PartialDate.parse(year) if year else None
    except (ValueError, OverflowError):
        record.dropped.append(f"date: unreadable year “{year[:40]}”")
        return None


def _related(data: Fields, relation: str) -> str:
    """The DOI of the other version a work names (a preprint its published version)."""
    for entry in data.items("relatedIdentifiers"):
        entry = Fields(entry, data.record, "relatedIdentifier: ")
        if entry.text("relationType") == relation and entry.text("relatedIdentifierType") == "DOI":
            return clean_doi(entry.text("relatedIdentifier"))
    return ""
