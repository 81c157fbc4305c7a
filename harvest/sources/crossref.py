"""A person's works on Crossref: those whose metadata carries their ORCID iD, 200 a page
through Crossref's cursor paging."""

import urllib.parse

from django.conf import settings

from harvest.models import Source
from harvest.sources import Found, Warn, capped, found_work
from people.models import Person
from publications.importing.crossref import crossref_record
from publications.importing.http import JsonClient, contact_email
from publications.importing.records import ImportProblem, arxiv_id_of_doi, clean_doi

ROWS = 200
MAX_PAGES = 50
# Crossref's types of records that are no one's paper (a referee report, a figure or table
# of an article, a journal or an issue): counted in the report, not harvested.
SKIPPED = {
    "peer-review",
    "component",
    "journal",
    "journal-issue",
    "journal-volume",
    "dataset",
    "database",
}


def applies(person: Person) -> bool:
    return bool(person.orcid)


def works(person: Person, client: JsonClient, warn: Warn) -> list[Found]:
    found: list[Found] = []
    cursor = "*"
    for _page in range(MAX_PAGES):
        params = {"filter": f"orcid:{person.orcid}", "rows": str(ROWS), "cursor": cursor}
        if contact := contact_email():
            params["mailto"] = contact  # Crossref's polite pool
        query = urllib.parse.urlencode(params, safe=":*")
        data = client.get_json(f"{settings.CROSSREF_URL}/works?{query}")
        message = data.get("message") if isinstance(data, dict) else None
        items = message.get("items") if isinstance(message, dict) else None
        if not isinstance(items, list):
            raise ImportProblem("Crossref's answer has no list of works.")
        for number, item in enumerate(capped(items, "Crossref", warn), start=len(found) + 1):
            record = crossref_record(item, f"Crossref work {number}")
            record.arxiv_id = record.arxiv_id or arxiv_id_of_doi(record.doi)
            ids = {"doi": record.doi, "arxiv": record.arxiv_id}
            kind = item.get("type") if isinstance(item, dict) else None
            work = found_work(
                Source.CROSSREF,
                record.doi,
                record,
                ids,
                warn,
                published_doi=_related(item, "is-preprint-of"),
                preprint_doi=_related(item, "has-preprint"),
                skipped=kind if kind in SKIPPED else "",
            )
            if work is not None:
                found.append(work)
        cursor = (message or {}).get("next-cursor") or ""
        if not cursor or not items:
            break
    return found


def _related(item: dict, kind: str) -> str:
    """The DOI of the other version a work names: a preprint its published version
    ("is-preprint-of"), a published work its preprint ("has-preprint")."""
    relation = item.get("relation") if isinstance(item, dict) else None
    links = relation.get(kind) if isinstance(relation, dict) else None
    for link in links if isinstance(links, list) else []:
        if isinstance(link, dict) and link.get("id-type") == "doi":
            return clean_doi(str(link.get("id") or ""))
    return ""
