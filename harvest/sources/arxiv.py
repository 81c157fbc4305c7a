"""A person's papers on arXiv: their author feed (arxiv.org/a/<id>.atom2), an Atom document
whose entries have the API's fields. A preprint naming its journal DOI is linked to that
version, not made the same work."""

import re
import xml.etree.ElementTree as ElementTree

from django.conf import settings

from core.partial_dates import PartialDate
from harvest.models import Source
from harvest.sources import Found, Warn
from people.models import Person
from publications.importing.http import JsonClient
from publications.importing.records import (
    AuthorRecord,
    ImportProblem,
    Kind,
    Record,
    check,
    clean_doi,
    squash,
)
from publications.models import Publication

ATOM, ARXIV = "{http://www.w3.org/2005/Atom}", "{http://arxiv.org/schemas/atom}"
_ABS = re.compile(r"arxiv\.org/abs/([\w./-]+?)(?:v\d+)?$", re.I)


def applies(person: Person) -> bool:
    return bool(person.arxiv_author_id)


def works(person: Person, client: JsonClient, warn: Warn) -> list[Found]:
    text = client.get_text(f"{settings.ARXIV_URL}/a/{person.arxiv_author_id}.atom2")
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as error:
        raise ImportProblem(f"arXiv's answer is not XML: {error}") from None
    if root.tag != f"{ATOM}feed":
        raise ImportProblem("arXiv's answer is not an Atom feed.")
    found = []
    for entry in root.findall(f"{ATOM}entry"):
        item = read_entry(entry, warn)
        if item is not None:
            found.append(item)
    return found


def _text(element: ElementTree.Element | None) -> str:
    return squash("".join(element.itertext())) if element is not None else ""


def read_entry(entry: ElementTree.Element, warn: Warn) -> Found | None:
    match = _ABS.search(_text(entry.find(f"{ATOM}id")))
    arxiv_id = match[1] if match else ""
    record = Record(label=f"arXiv {arxiv_id or 'entry'}", arxiv_id=arxiv_id)
    record.title = _text(entry.find(f"{ATOM}title"))
    record.kind, record.status = Kind.PREPRINT, Publication.Status.PREPRINT
    record.venue_name = "arXiv"
    published = _text(entry.find(f"{ATOM}published"))[:10]
    try:
        record.date = PartialDate.parse(published[:7]) if published else None
    except (ValueError, OverflowError):
        record.problems.append(f"unreadable date “{published}”")
    record.abstract = _text(entry.find(f"{ATOM}summary"))
    for author in entry.findall(f"{ATOM}author"):
        given, _, family = _text(author.find(f"{ATOM}name")).rpartition(" ")
        record.authors.append(AuthorRecord(given=given, family=family))
    check(record)
    if record.problems or not arxiv_id:
        warn(f"{record.label}: {'; '.join(record.problems) or 'it has no arXiv id'}")
        return None
    record.url = f"https://arxiv.org/abs/{arxiv_id}"
    journal_doi = clean_doi(_text(entry.find(f"{ARXIV}doi")))
    return Found(Source.ARXIV, arxiv_id, record, {"arxiv": arxiv_id}, published_doi=journal_doi)
