"""The services harvested, each read into `Found` works: one module per service, each with
`applies(person)` (the person has an identity there) and `works(person, client, report)`.

A service that cannot be read raises ImportProblem; a work that is readable but unusable
(no title, no authors) is left out and named in the report, never half-written.

Every service is read over plain HTTP through the importers' client
(`publications.importing.http`), not pyalex, habanero or arxiv: one timeout, retry, pause
and User-Agent policy for all of them, base addresses from the settings, and answers read
into the importers' typed `Record`s."""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from harvest.models import Source
from publications.importing.records import Record


@dataclass
class Found:
    """One work as one service lists it for one person."""

    source: str
    source_id: str  # the work's id there: an ORCID put-code, an OpenAlex W-id, a DBLP key, …
    record: Record
    ids: dict[str, str] = field(default_factory=dict)  # WorkId kind → value it is known by
    published_doi: str = ""  # a preprint's note of its published version


def harvesters() -> dict[str, Any]:
    """{source name: its module}, in the order a run reads them (imported here: each module
    imports `Found` from this one)."""
    from harvest.sources import arxiv, crossref, dblp, openalex, orcid

    return {
        Source.ORCID: orcid,
        Source.OPENALEX: openalex,
        Source.CROSSREF: crossref,
        Source.DBLP: dblp,
        Source.ARXIV: arxiv,
    }


Warn = Callable[[str], None]
