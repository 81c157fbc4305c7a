"""Citation counts for every paper with a DOI, from OpenAlex (which indexes far more works
than Crossref's own reference counts cover), fifty DOIs a request. A paper's first reading
also brings its history: OpenAlex's `counts_by_year` (citations received each year, the last
ten or so) gives the count at each past year's end, so a new site charts it at once."""

import datetime
import urllib.parse
from collections.abc import Iterable

from django.conf import settings
from django.utils import timezone

from publications.importing.http import JsonClient, contact_email
from publications.importing.planning import merge
from publications.importing.records import ImportProblem, Record
from publications.models import CitationReading, Publication

BATCH = 50  # OpenAlex takes up to 50 values in one "doi:" filter


def openalex_url(dois: Iterable[str]) -> str:
    query = {
        "filter": "doi:" + "|".join(dois),
        "select": "doi,cited_by_count,counts_by_year",
        "per-page": str(BATCH),
    }
    if contact := contact_email():
        query["mailto"] = contact  # OpenAlex's polite pool
    return f"{settings.OPENALEX_URL}/works?{urllib.parse.urlencode(query, safe=':|/')}"


def openalex_counts(
    dois: Iterable[str], client: JsonClient, history: dict[str, dict[int, int]] | None = None
) -> dict[str, int]:
    """{doi: citation count} for the DOIs OpenAlex knows; ImportProblem if a request fails.
    With `history`, each DOI's citations received per year are put in it ({year: count})."""
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
                if history is not None:
                    history[doi] = _per_year(work.get("counts_by_year"))
    return counts


def _per_year(value: object) -> dict[int, int]:
    """{year: citations received that year} from OpenAlex's counts_by_year; entries of the
    wrong shape are left out."""
    per_year: dict[int, int] = {}
    for entry in value if isinstance(value, list) else []:
        if not isinstance(entry, dict):
            continue
        year, count = entry.get("year"), entry.get("cited_by_count")
        if (
            isinstance(year, int)
            and isinstance(count, int)
            and not isinstance(count, bool)
            and 1000 <= year <= 9999
            and count >= 0
        ):
            per_year[year] = count
    return per_year


def past_readings(
    count: int, per_year: dict[int, int], today: datetime.date
) -> list[tuple[datetime.date, int]]:
    """(31 Dec of a past year, the count by then) for each year from the first one OpenAlex
    lists: today's count less what came in the years after. A year the figures cannot
    explain (the count would fall below zero) ends the history there."""
    years = [y for y in per_year if y < today.year]
    if not years:
        return []
    readings = []
    for year in range(today.year - 1, min(years) - 1, -1):
        by_then = count - sum(n for y, n in per_year.items() if y > year)
        if by_then < 0:
            break
        readings.append((datetime.date(year, 12, 31), by_then))
    return readings[::-1]


def refresh_counts(
    publications: Iterable[Publication], client: JsonClient, *, today: datetime.date | None = None
) -> tuple[list[Publication], list[Publication], list[Publication]]:
    """Read the publications' counts from OpenAlex and store them by the import merge rule
    (a count an admin typed is kept), each reading also kept as a point of the paper's
    citation history (one a day per source). Returns (updated, kept, missing) lists."""
    today = today or timezone.localdate()
    publications = [p for p in publications if p.doi]
    history: dict[str, dict[int, int]] = {}
    counts = openalex_counts([p.doi for p in publications], client, history)
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
    already = set(
        CitationReading.objects.filter(publication__in=read, source="OpenAlex")
        .exclude(read_on=today)
        .values_list("publication_id", flat=True)
        .distinct()
    )
    # today's reading, where one was taken already, takes the count read now (in place: a
    # reading that did not move stays the row it was)
    earlier = {
        r.publication_id: r
        for r in CitationReading.objects.filter(
            publication__in=read, source="OpenAlex", read_on=today
        )
    }
    count_of = {p.pk: counts[p.doi] for p in read}
    moved = [r for r in earlier.values() if r.count != count_of[r.publication_id]]
    for reading in moved:
        reading.count = count_of[reading.publication_id]
    CitationReading.objects.bulk_update(moved, ["count"])
    CitationReading.objects.bulk_create(
        [
            *(
                CitationReading(publication=p, source="OpenAlex", read_on=on, count=n)
                for p in read
                if p.pk not in already  # the first reading: its history backfilled
                for on, n in past_readings(counts[p.doi], history.get(p.doi, {}), today)
            ),
            *(
                CitationReading(
                    publication=p, source="OpenAlex", read_on=today, count=counts[p.doi]
                )
                for p in read
                if p.pk not in earlier
            ),
        ]
    )
    return updated, kept, missing
