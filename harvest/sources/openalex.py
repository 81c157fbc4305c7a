"""A person's works on OpenAlex, by their OpenAlex author id (or their ORCID), 200 a page
through OpenAlex's cursor paging. An author id OpenAlex has merged into another is followed
(its /authors/ answer names the id it lives under now) and the report says so."""

import re
import urllib.parse

from django.conf import settings

from core.names import name_parts
from core.partial_dates import PartialDate
from harvest.models import Source
from harvest.sources import Found, Warn, capped, found_work
from people.models import Person
from publications.importing.http import JsonClient, contact_email
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
    page_range,
    stated_status,
    valid_issns,
)
from publications.importing.titles import clean_text
from publications.models import Publication

PER_PAGE = 200
MAX_PAGES = 50  # 10,000 works: more than any one person has
KINDS = {
    ("article", "journal"): Kind.JOURNAL,
    ("article", "conference"): Kind.CONFERENCE,
    ("preprint", None): Kind.PREPRINT,
    ("book-chapter", None): Kind.CHAPTER,
    ("book", None): Kind.BOOK,
    ("dissertation", None): Kind.THESIS,
    ("report", None): Kind.REPORT,
    ("review", "journal"): Kind.JOURNAL,  # a review article
    ("letter", "journal"): Kind.JOURNAL,
}
# OpenAlex's types of works that are no one's paper: counted in the report, not harvested.
SKIPPED = {
    "peer-review",
    "paratext",
    "erratum",
    "retraction",
    "supplementary-materials",
    "libguides",
    "grant",
    "dataset",
    "software",
    "standard",
}


def applies(person: Person) -> bool:
    return bool(person.openalex_id or person.orcid)


def _query(params: dict[str, str]) -> str:
    if contact := contact_email():
        params["mailto"] = contact  # OpenAlex's polite pool
    return urllib.parse.urlencode(params, safe=":|/*")


def author_filter(person: Person, client: JsonClient, warn: Warn) -> str:
    """The works filter for the person: their author id as OpenAlex holds it now."""
    if not person.openalex_id:
        return f"author.orcid:https://orcid.org/{person.orcid}"
    url = f"{settings.OPENALEX_URL}/authors/{person.openalex_id}?{_query({'select': 'id'})}"
    data = client.get_json(url)
    current = str(data.get("id") or "").rsplit("/", 1)[-1] if isinstance(data, dict) else ""
    if not current:
        raise ImportProblem(f"OpenAlex's answer for author {person.openalex_id} has no id.")
    if current.upper() != person.openalex_id:
        warn(
            f"OpenAlex author {person.openalex_id} is now {current} (merged); followed it — "
            f"update {person.name}'s OpenAlex author id"
        )
    return f"author.id:{current.upper()}"


def works(person: Person, client: JsonClient, warn: Warn) -> list[Found]:
    params = {"filter": author_filter(person, client, warn), "per-page": str(PER_PAGE)}
    found: list[Found] = []
    cursor = "*"
    for _page in range(MAX_PAGES):
        data = client.get_json(
            f"{settings.OPENALEX_URL}/works?{_query({**params, 'cursor': cursor})}"
        )
        results = data.get("results") if isinstance(data, dict) else None
        if not isinstance(results, list):
            raise ImportProblem("OpenAlex's answer has no results list.")
        for work in capped(results, "OpenAlex", warn):
            item = read_work(work, warn)
            if item is not None:
                found.append(item)
        meta = data.get("meta") if isinstance(data.get("meta"), dict) else {}
        cursor = meta.get("next_cursor") or ""
        if not cursor or not results:
            break
    return found


def read_work(work: object, warn: Warn) -> Found | None:
    record = Record(label="OpenAlex work")
    data = Fields(work, record)
    work_id = data.text("id").rsplit("/", 1)[-1]
    if work_id:
        record.label = f"OpenAlex work {work_id}"
    record.title = clean_text(data.text("title") or data.text("display_name"))
    record.doi = clean_doi(data.text("doi"))
    record.arxiv_id = arxiv_id_of_doi(record.doi)
    location = Fields(data.obj("primary_location"), record, "primary_location: ")
    venue = Fields(location.obj("source"), record, "source: ")
    venue_type = venue.text("type") or None
    work_type = data.text("type")
    record.kind = KINDS.get((work_type, venue_type)) or KINDS.get((work_type, None)) or ""
    record.status = stated_status(record.kind)
    if work_type == "preprint":
        record.status = Publication.Status.PREPRINT
    record.venue_name = clean_text(venue.text("display_name"))
    record.issns = valid_issns(venue.items("issn"))
    record.date = _date(data.text("publication_date"), data.whole_number("publication_year"))
    biblio = Fields(data.obj("biblio"), record, "biblio: ")
    record.volume, record.issue = biblio.text("volume"), biblio.text("issue")
    first, last = biblio.text("first_page"), biblio.text("last_page")
    record.pages = page_range(f"{first}-{last}" if first and last and first != last else first)
    landing = location.text("landing_page_url")
    record.url = landing if landing.startswith(("http://", "https://")) else ""
    # OpenAlex holds a work's versions as its locations: an arXiv one names the preprint of
    # a published work, which is then one work with it, not a stranger
    record.arxiv_id = record.arxiv_id or _arxiv_location(
        [data.obj("primary_location"), data.obj("best_oa_location"), *data.items("locations")]
    )
    for authorship in data.items("authorships"):
        authorship = Fields(authorship, record, "authorship: ")
        author = Fields(authorship.obj("author"), record, "author: ")
        given, family, suffix = name_parts(
            clean_text(authorship.text("raw_author_name") or author.text("display_name"))
        )
        record.authors.append(
            AuthorRecord(
                given=given,
                family=family,
                suffix=suffix,
                orcid=clean_orcid(author.text("orcid")),
                ids=_author_id(author.text("id")),
                is_corresponding=authorship.data.get("is_corresponding") is True,
            )
        )
    check(record)
    ids = {"openalex": work_id, "doi": record.doi, "arxiv": record.arxiv_id}
    skipped = work_type if work_type in SKIPPED else ""
    return found_work(Source.OPENALEX, work_id, record, ids, warn, skipped=skipped)


_ARXIV_PAGE = re.compile(
    r"^https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/([\w./-]+?)(?:v\d+)?(?:\.pdf)?$"
)


def _arxiv_location(locations: list[object]) -> str:
    """The arXiv id of the first location on arXiv ("" for none)."""
    for location in locations:
        if not isinstance(location, dict):
            continue
        for key in ("landing_page_url", "pdf_url"):
            match = _ARXIV_PAGE.match(str(location.get(key) or ""))
            if match:
                return match[1]
    return ""


def _author_id(url: str) -> dict[str, str]:
    """{"openalex": "A5023888391"} from "https://openalex.org/A5023888391" ({} for none)."""
    value = url.rsplit("/", 1)[-1].upper()
    return {"openalex": value} if value.startswith("A") and value[1:].isdigit() else {}


def _date(text: str, year: int | None) -> PartialDate | None:
    try:
        return PartialDate.parse(text) if text else (PartialDate(year) if year else None)
    except (ValueError, OverflowError):
        return PartialDate(year) if year else None
