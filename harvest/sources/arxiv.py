"""A person's papers on arXiv: their author feed (arxiv.org/a/<id>.atom2), an Atom document
whose entries have the API's fields. A preprint naming its journal DOI is linked to that
version, not made the same work."""

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
)
from publications.importing.titles import clean_text
from publications.models import Publication

ATOM, ARXIV = "{http://www.w3.org/2005/Atom}", "{http://arxiv.org/schemas/atom}"
_ABS = re.compile(r"arxiv\.org/abs/([\w./-]+?)(?:v\d+)?$", re.I)


def applies(person: Person) -> bool:
    return bool(person.arxiv_author_id)


def works(person: Person, client: JsonClient, warn: Warn) -> list[Found]:
    text = client.get_text(f"{settings.ARXIV_URL}/a/{person.arxiv_author_id}.atom2")
    root = xml_root(text, "arXiv", f"{ATOM}feed", "an Atom feed")
    found = []
    for entry in capped(root.findall(f"{ATOM}entry"), "arXiv", warn):
        item = read_entry(entry, warn)
        if item is not None:
            found.append(item)
    return found


def read_entry(entry: ElementTree.Element, warn: Warn) -> Found | None:
    match = _ABS.search(element_text(entry.find(f"{ATOM}id")))
    arxiv_id = match[1] if match else ""
    record = Record(label=f"arXiv {arxiv_id or 'entry'}", arxiv_id=arxiv_id)
    record.title = clean_text(element_text(entry.find(f"{ATOM}title")))
    record.kind, record.status = Kind.PREPRINT, Publication.Status.PREPRINT
    record.venue_name = "arXiv"
    published = element_text(entry.find(f"{ATOM}published"))[:10]
    try:
        record.date = PartialDate.parse(published[:7]) if published else None
    except (ValueError, OverflowError):
        record.dropped.append(f"date: unreadable “{published[:40]}”")
    record.abstract = element_text(entry.find(f"{ATOM}summary"))
    for author in entry.findall(f"{ATOM}author"):
        given, family, suffix = name_parts(clean_text(element_text(author.find(f"{ATOM}name"))))
        record.authors.append(AuthorRecord(given=given, family=family, suffix=suffix))
    check(record)
    record.url = f"https://arxiv.org/abs/{arxiv_id}" if arxiv_id else ""
    journal_doi = clean_doi(element_text(entry.find(f"{ARXIV}doi")))
    # What arXiv says of the published version is kept with the preprint (the review
    # shows it; accepting writes it), and links it to that version when the lab has it.
    reference = element_text(entry.find(f"{ARXIV}journal_ref"))
    if reference:
        record.source_fields["journal_ref"] = reference
    if journal_doi:
        record.source_fields["journal_doi"] = journal_doi
    ids = {"arxiv": arxiv_id}
    return found_work(Source.ARXIV, arxiv_id, record, ids, warn, published_doi=journal_doi)
