"""Completing harvested works from their DOI's registration: a work whose source gives no
full author list (ORCID's summaries, a list ending "et al.") takes Crossref's record of its
DOI, and a preprint naming its published version's DOI (arXiv's `doi`) brings that version's
record, so it is found and joined, not left a preprint with no DOI.

Read at harvest time through the run's own client (its timeout, size bound, pause and
User-Agent, like every source), at most HARVEST_MAX_COMPLETIONS requests a run; a DOI the
lab or a candidate already holds, or that another source of the run gives with its full
author list, is not asked for. Each completion is one more work found for the same members,
from Crossref: it merges with the work by its DOI, so every field says which source gave it
(`merged_record`'s origins), and its provenance says it was asked for by DOI."""

import urllib.parse
from dataclasses import dataclass, field

from django.conf import settings

from harvest.models import Source, WorkId
from harvest.sources import Found
from people.models import Person
from publications.importing.crossref import crossref_record
from publications.importing.http import JsonClient, NotFound, contact_email
from publications.importing.records import ImportProblem, arxiv_id_of_doi
from publications.models import Publication

_GIVING_UP = 3  # requests failing in a row (not a "no such DOI"): Crossref is down; stop


@dataclass
class Completion:
    """What completing a run's works did, for its report."""

    asked: int = 0
    completed: int = 0
    not_registered: int = 0  # Crossref has no such DOI (a DataCite DOI, a typo)
    left: int = 0  # past the run's bound: asked for by the next run
    errors: list[str] = field(default_factory=list)
    # The DOIs not completed though Crossref may know them (past the bound, or its answer
    # failed): their works keep placeholders a reviewer must see (no auto-accept).
    pending: set[str] = field(default_factory=set)

    def report(self) -> dict[str, object]:
        return {
            "asked": self.asked,
            "completed": self.completed,
            "not at Crossref": self.not_registered,
            "left for the next run": self.left,
            "errors": self.errors,
        }


def lacks_authors(found: Found) -> bool:
    return any(author.is_unlisted for author in found.record.authors)


def wanted(pairs: list[tuple[Person, Found]]) -> dict[str, list[Person]]:
    """{DOI: the members it was found for} of the works to complete, in the order found:
    DOIs of works without their full author list, and published versions preprints name;
    none that another work of the run gives complete, or that the lab or a candidate holds
    (a query per 500 DOIs)."""
    complete = {
        found.ids["doi"] for _, found in pairs if found.ids.get("doi") and not lacks_authors(found)
    }
    want: dict[str, list[Person]] = {}
    for person, found in pairs:
        for doi in (found.ids.get("doi", "") if lacks_authors(found) else "", found.published_doi):
            if doi and doi not in complete:
                people = want.setdefault(doi, [])
                if person not in people:
                    people.append(person)
    dois = sorted(want)
    for start in range(0, len(dois), 500):
        chunk = dois[start : start + 500]
        held = set(Publication.objects.filter(doi__in=chunk).values_list("doi", flat=True))
        held |= set(
            WorkId.objects.filter(kind=WorkId.Kind.DOI, value__in=chunk).values_list(
                "value", flat=True
            )
        )
        for doi in held:
            want.pop(doi, None)
    return want


def complete(
    pairs: list[tuple[Person, Found]], client: JsonClient, outcome: Completion
) -> list[tuple[Person, Found]]:
    """Crossref's record of each DOI `wanted` names, as works found for its members."""
    limit = settings.HARVEST_MAX_COMPLETIONS
    want = wanted(pairs)
    more: list[tuple[Person, Found]] = []
    failing = 0
    for number, (doi, people) in enumerate(want.items()):
        if number >= limit or failing >= _GIVING_UP:
            outcome.left = len(want) - number
            outcome.pending |= set(list(want)[number:])
            break
        outcome.asked += 1
        query = urllib.parse.urlencode({"mailto": contact_email()} if contact_email() else {})
        url = f"{settings.CROSSREF_URL}/works/{urllib.parse.quote(doi, safe='/:;()')}"
        try:
            data = client.get_json(f"{url}?{query}" if query else url)
        except NotFound:
            outcome.not_registered += 1
            failing = 0
            continue
        except ImportProblem as problem:
            outcome.errors.append(f"DOI {doi}: {problem}")
            outcome.pending.add(doi)
            failing += 1
            continue
        failing = 0
        message = data.get("message") if isinstance(data, dict) else None
        record = crossref_record(message, f"DOI {doi}")
        if record.problems or record.doi != doi:
            outcome.pending.add(doi)
            outcome.errors.append(
                f"DOI {doi}: Crossref's record is not usable ({'; '.join(record.problems)})"
                if record.problems
                else f"DOI {doi}: Crossref answered with another DOI ({record.doi})"
            )
            continue
        record.arxiv_id = record.arxiv_id or arxiv_id_of_doi(record.doi)
        ids = {k: v for k, v in {"doi": record.doi, "arxiv": record.arxiv_id}.items() if v}
        outcome.completed += 1
        for person in people:
            more.append((person, Found(Source.CROSSREF, doi, record, dict(ids), by_doi=True)))
    return more
