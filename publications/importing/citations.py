"""Citation counts for every paper with a DOI, from OpenAlex (which indexes far more works
than Crossref's own reference counts cover), fifty DOIs a request."""

import datetime
import urllib.parse
from collections.abc import Iterable

from publications.importing.http import JsonClient, contact_email
from publications.importing.planning import merge
from publications.importing.records import ImportProblem, Record
from publications.models import Publication

OPENALEX_WORKS = "https://api.openalex.org/works"
BATCH = 50  # OpenAlex takes up to 50 values in one "doi:" filter


def openalex_url(dois: Iterable[str]) -> str:
    query = {
        "filter": "doi:" + "|".join(dois),
        "select": "doi,cited_by_count",
        "per-page": str(BATCH),
    }
    if contact := contact_email():
        query["mailto"] = contact  # OpenAlex's polite pool
    return f"{OPENALEX_WORKS}?{urllib.parse.urlencode(query, safe=':|/')}"


def openalex_counts(dois: Iterable[str], client: JsonClient) -> dict[str, int]:
    """{doi: citation count} for the DOIs OpenAlex knows; ImportProblem if a request fails."""
    counts: dict[str, int] = {}
    dois = sorted(set(dois))
    for start in range(0, len(dois), BATCH):
        data = client.get_json(openalex_url(dois[start : start + BATCH]))
        results = data.get("results") if isinstance(data, dict) else None
        if not isinstance(results, list):
            raise ImportProblem("OpenAlex's answer has no results list.")
        for work in results:
            doi = str(work.get("doi") or "").lower().removeprefix("https://doi.org/")
            count = work.get("cited_by_count")
            if doi and isinstance(count, int) and not isinstance(count, bool) and count >= 0:
                counts[doi] = count
    return counts


def refresh_counts(
    publications: Iterable[Publication], client: JsonClient, *, today: datetime.date | None = None
) -> tuple[list[Publication], list[Publication], list[Publication]]:
    """Read the publications' counts from OpenAlex and store them by the import merge rule
    (a count an admin typed is kept). Returns (updated, kept, missing) publication lists."""
    today = today or datetime.date.today()
    publications = [p for p in publications if p.doi]
    counts = openalex_counts([p.doi for p in publications], client)
    updated, kept, missing = [], [], []
    for publication in publications:
        if publication.doi not in counts:
            missing.append(publication)
            continue
        record = Record(
            label=f"DOI {publication.doi}",
            citation_count=counts[publication.doi],
            citations_read_on=today,
            citations_source="OpenAlex",
        )
        changed, held = merge(publication, record)
        if changed:
            publication.save()
            updated.append(publication)
        elif held:
            kept.append(publication)
    return updated, kept, missing
