"""A person's publications on DBLP: their person page as XML (dblp.org/pid/<pid>.xml), the
documented way to fetch all of one author's records."""

import re
import xml.etree.ElementTree as ElementTree

from django.conf import settings

from core.names import name_parts
from core.partial_dates import PartialDate
from harvest.models import Source
from harvest.sources import Found, Warn, capped, element_text, found_work, xml_root
from people.models import Person
from publications.importing.http import JsonClient
from publications.importing.records import (
    AuthorRecord,
    Kind,
    Record,
    check,
    clean_doi,
    clean_orcid,
    page_range,
    stated_status,
)
from publications.importing.titles import clean_text
from publications.models import Publication

KINDS = {
    "article": Kind.JOURNAL,
    "inproceedings": Kind.CONFERENCE,
    "incollection": Kind.CHAPTER,
    "book": Kind.BOOK,
    "phdthesis": Kind.THESIS,
    "mastersthesis": Kind.THESIS,
}
_HOMONYM = re.compile(r"\s+\d{4}$")  # DBLP's "Wei Wang 0001"
_ARXIV_LINK = re.compile(r"arxiv\.org/abs/([\w./-]+?)(?:v\d+)?$", re.I)


def applies(person: Person) -> bool:
    return bool(person.dblp_pid)


def works(person: Person, client: JsonClient, warn: Warn) -> list[Found]:
    text = client.get_text(f"{settings.DBLP_URL}/pid/{person.dblp_pid}.xml")
    root = xml_root(text, "DBLP", "dblpperson", "a person's publication list")
    found = []
    for wrapper in capped(root.findall("r"), "DBLP", warn):
        for element in wrapper:
            item = read_entry(element, warn)
            if item is not None:
                found.append(item)
    return found


def read_entry(element: ElementTree.Element, warn: Warn) -> Found | None:
    key = element.get("key", "")
    record = Record(label=f"DBLP {key or element.tag}")
    record.title = clean_text(element_text(element.find("title"))).rstrip(".")
    record.kind = KINDS.get(element.tag, "")
    record.status = stated_status(record.kind)
    venue = clean_text(
        element_text(element.find("journal")) or element_text(element.find("booktitle"))
    )
    informal = element.get("publtype") == "informal"
    links = [element_text(link) for link in element.findall("ee")]
    for link in links:
        record.doi = record.doi or (clean_doi(link) if "doi.org/" in link else "")
        match = _ARXIV_LINK.search(link)
        record.arxiv_id = record.arxiv_id or (match[1] if match else "")
    if informal or venue == "CoRR":
        record.kind, record.status = Kind.PREPRINT, Publication.Status.PREPRINT
        venue = "arXiv" if record.arxiv_id or venue == "CoRR" else venue
    record.venue_short = venue
    record.venue_key = "/".join(key.split("/")[:2]) if key.count("/") >= 2 else ""
    year = element_text(element.find("year"))
    try:
        record.date = PartialDate(int(year)) if year else None
    except (ValueError, OverflowError):
        record.dropped.append(f"date: unreadable year “{year[:40]}”")
    record.volume, record.issue = (
        element_text(element.find("volume")),
        element_text(element.find("number")),
    )
    record.pages = page_range(element_text(element.find("pages")))
    for author in element.findall("author"):
        given, family, suffix = name_parts(clean_text(_HOMONYM.sub("", element_text(author))))
        pid = author.get("pid", "").strip()
        record.authors.append(
            AuthorRecord(
                given=given,
                family=family,
                suffix=suffix,
                orcid=clean_orcid(author.get("orcid", "")),
                ids={"dblp": pid} if pid else {},
            )
        )
    check(record)
    ids = {"dblp": key, "doi": record.doi, "arxiv": record.arxiv_id}
    return found_work(Source.DBLP, key, record, ids, warn)
