"""A person's public works on ORCID (one request): the summaries, as ORCID lists them."""

from django.conf import settings

from harvest.models import Source
from harvest.sources import Found, Warn, capped, found_work
from people.models import Person
from publications.importing.http import JsonClient
from publications.importing.orcid import fill_from_summary
from publications.importing.records import Fields, ImportProblem, Record, clean_doi

# ORCID's types of works that are no paper of the lab's record (API 3.0 spelling; 2.x's
# "DATA_SET" is read the same): left out of the harvest, counted in the report by kind. A
# type that is a paper's kind (a conference poster is a poster) is mapped to it instead
# (`ORCID_KINDS`), and the lab's settings decide whether the harvest brings it in.
SKIPPED = {
    "data-set": "dataset",
    "software": "software",
    "lecture-speech": "slides",
    "research-technique": "other research output",
    "physical-object": "other research output",
    "research-tool": "software",
    "online-resource": "other research output",
    "website": "other research output",
    "review": "peer review",
    "annotation": "other research output",
    "translation": "translation",
}


def applies(person: Person) -> bool:
    return bool(person.orcid)


def works(person: Person, client: JsonClient, warn: Warn) -> list[Found]:
    data = client.get_json(f"{settings.ORCID_API_URL}/{person.orcid}/works")
    groups = data.get("group") if isinstance(data, dict) else None
    if not isinstance(groups, list):
        raise ImportProblem(f"ORCID's answer for {person.orcid} has no works list.")
    found = []
    for number, group in enumerate(capped(groups, "ORCID", warn), start=1):
        record = Record(label=f"ORCID work {number}")
        summaries = Fields(group, record).items("work-summary")
        summary = Fields(summaries[0] if summaries else {}, record)
        ids: dict[str, str] = {}
        for entry in summary.obj("external-ids").get("external-id") or []:
            entry = Fields(entry, record, "external id: ")
            ids.setdefault(entry.text("external-id-type").lower(), entry.text("external-id-value"))
        fill_from_summary(record, summary, ids, person)
        record.doi = clean_doi(ids.get("doi", ""))
        keys = {"doi": record.doi, "arxiv": record.arxiv_id}
        kind = summary.text("type").lower().replace("_", "-")
        item = found_work(
            Source.ORCID,
            summary.text("put-code"),
            record,
            keys,
            warn,
            skipped=SKIPPED.get(kind, ""),
        )
        if item is not None:
            found.append(item)
    return found
