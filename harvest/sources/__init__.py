"""The services harvested, each read into `Found` works: one module per service, each with
`applies(person)` (the person has an identity there) and `works(person, client, report)`.

A service that cannot be read raises ImportProblem; a work that is readable but unusable
(no title, no authors) is left out and named in the report, never half-written; a work with
one unreadable field (a year "0") comes in without it, and the report names the field.

Every service is read over plain HTTP through the importers' client
(`publications.importing.http`), not pyalex, habanero or arxiv: one timeout, retry, pause
and User-Agent policy for all of them, base addresses from the settings, and answers read
into the importers' typed `Record`s."""

import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.conf import settings

from harvest.models import Source
from publications.importing.records import ImportProblem, Record, squash


@dataclass
class Found:
    """One work as one service lists it for one person."""

    source: str
    source_id: str  # the work's id there: an ORCID put-code, an OpenAlex W-id, a DBLP key, …
    record: Record
    ids: dict[str, str] = field(default_factory=dict)  # WorkId kind → value it is known by
    published_doi: str = ""  # a preprint's note of its published version
    preprint_doi: str = ""  # a published work's note of its preprint (Crossref's has-preprint)
    # The source's kind of a work that is no paper (a peer review, a figure, an issue):
    # counted in the run report by that kind, never made a candidate.
    skipped: str = ""
    # Asked for by its DOI to complete another work (harvest.completion), not listed by
    # the source for the person.
    by_doi: bool = False


def harvesters() -> dict[str, Any]:
    """{source name: its module}, in the order a run reads them (imported here: each module
    imports `Found` from this one)."""
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

    return {
        Source.ORCID: orcid,
        Source.OPENALEX: openalex,
        Source.CROSSREF: crossref,
        Source.DBLP: dblp,
        Source.ARXIV: arxiv,
        Source.SEMANTIC_SCHOLAR: semantic_scholar,
        Source.EUROPEPMC: europepmc,
        Source.DATACITE: datacite,
    }


Warn = Callable[[str], None]
T = TypeVar("T")


def capped(items: list[T], service: str, warn: Warn) -> list[T]:
    """The first HARVEST_MAX_ITEMS of what one answer lists; a longer list is cut there and
    the report says so (an answer of 100,000 empty works must not hold the worker)."""
    limit = settings.HARVEST_MAX_ITEMS
    if len(items) > limit:
        warn(f"{service} listed {len(items):,} works in one answer; read the first {limit:,}")
    return items[:limit]


def found_work(
    source: str, source_id: str, record: Record, ids: dict[str, str], warn: Warn, **more: Any
) -> Found | None:
    """The work as `source` lists it, or None when it is unusable (a problem of its record,
    or no id at the source): then the report names it and nothing of it is kept. A work of
    a kind that is no paper (`skipped` in `more`) is returned as such, whatever its record."""
    if more.get("skipped"):
        return Found(source, source_id, record, **more)
    if record.problems or not source_id:
        warn(f"{record.label}: {'; '.join(record.problems) or 'it has no id there'}")
        return None
    for dropped in record.dropped:  # a bad field is left out and named; the work stays
        warn(f"{record.label}: kept without its {dropped}")
    return Found(source, source_id, record, {k: v for k, v in ids.items() if v}, **more)


def xml_root(text: str, service: str, tag: str, what: str) -> ElementTree.Element:
    """The answer's root element, which must be `tag`; ImportProblem otherwise. Read with
    the standard library's expat parser, which refuses external entities and bounds entity
    expansion."""
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as error:
        raise ImportProblem(f"{service}'s answer is not XML: {error}") from None
    if root.tag != tag:
        raise ImportProblem(f"{service}'s answer is not {what}.")
    return root


def element_text(element: ElementTree.Element | None) -> str:
    """An element's text, its children's included, on one line ("" for no element)."""
    return squash("".join(element.itertext())) if element is not None else ""
