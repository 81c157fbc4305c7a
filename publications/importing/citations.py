"""Citation counts for every paper with a DOI, from OpenAlex (which indexes far more works
than Crossref's own reference counts cover), fifty DOIs a request."""

import datetime
import urllib.parse
from collections.abc import Iterable

from django.conf import settings

from publications.importing.http import JsonClient, contact_email
from publications.importing.planning import merge
from publications.importing.records import ImportProblem, Record
from publications.models import CitationReading, Publication

BATCH = 50  # OpenAlex takes up to 50 values in one "doi:" filter


def openalex_url(dois: Iterable[str]) -> str:
    query = {
        "filter": "doi:" + "|".join(dois),
        "select": "doi,cited_by_count",
        "per-page": str(BATCH),
    }
    if contact := contact_email():
        query["mailto"] = contact  # OpenAlex's polite pool
    return f"{settings.OPENALEX_URL}/works?{urllib.parse.urlencode(query, safe=':|/')}"


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
    (a count an admin typed is kept), each reading also kept as a point of the paper's
    citation history (one a day per source). Returns (updated, kept, missing) lists."""
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
    read = [p for p in publications if p.doi in counts]
    CitationReading.objects.filter(publication__in=read, source="OpenAlex", read_on=today).delete()
    CitationReading.objects.bulk_create(
        CitationReading(publication=p, source="OpenAlex", read_on=today, count=counts[p.doi])
        for p in read
    )
    return updated, kept, missing
