"""A Hugo paper's page (content/publication/<paper>/index.md) and the cite.bib beside it."""

import re
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

from labsite.site_import.hugo.links import links_of
from labsite.site_import.hugo.sections import as_list, author_names, mapping_at, page_tags
from labsite.site_import.maps import HUGO_PUBLICATION, field_value
from labsite.site_import.site import (
    Site,
    Unreadable,
    clean_markdown,
    date_of,
    featured_image,
    front_matter,
    plain,
    read_text,
)
from publications.exports import CSL_TYPES
from publications.importing import AuthorRecord, ImportProblem, Record, read_bibtex
from publications.importing.records import clean_doi
from publications.models import Publication

KINDS = {csl: kind for kind, csl in reversed(CSL_TYPES.items())} | {
    "article": Publication.Kind.PREPRINT,
    "manuscript": Publication.Kind.PREPRINT,
}
# Older Academic numbered its publication types (0 uncategorized … 8 book chapter).
NUMBERED_KINDS = {
    "1": Publication.Kind.CONFERENCE,
    "2": Publication.Kind.JOURNAL,
    "3": Publication.Kind.PREPRINT,
    "4": Publication.Kind.REPORT,
    "5": Publication.Kind.BOOK,
    "6": Publication.Kind.CHAPTER,
    "7": Publication.Kind.THESIS,
    "8": Publication.Kind.PATENT,
}
NOTES = {"equal contribution": "is_equal_contribution", "corresponding author": "is_corresponding"}


def _apply_links(record: Record, links: dict[str, Any]) -> None:
    """Each link in its home on the record; the first named one as its other link, the rest
    kept with it as its source's fields."""
    for name, value in links.items():
        if name == "named":
            continue
        if name == "doi":
            value = clean_doi(value)
        if value and not getattr(record, name):
            setattr(record, name, str(value))
    for label, url in links["named"]:
        if not record.other_url:
            record.other_url, record.other_label = url, label[:100]
        elif url != record.other_url:
            record.source_fields[label.lower()] = url


def read_publication(site: Site, path: Path) -> None:
    """A paper's page: its cite.bib where that describes the paper the page shows, and the
    page's own fields where cite.bib (which wins) does not say."""
    values, body = front_matter(site, path)
    name = site.name(path)
    record = _cite_bib(site, path, plain(_field(values, "title"))) or Record(label=name)
    record.title = plain(_field(values, "title")) or record.title  # the title the site shows
    _kind_and_venue(record, values)
    _identifiers(record, values)
    record.abstract = (
        record.abstract
        or clean_markdown(str(_field(values, "abstract") or ""))
        or plain(_field(values, "summary"))
    )
    if _field(values, "selected") is not None and record.is_selected is None:
        record.is_selected = bool(_field(values, "selected"))
    _authors(site, record, values)
    if not record.title:
        raise Unreadable(name, "the publication has no title")
    if clean_markdown(body):
        site.no_home.append(f"{name}: the page's text (the abstract is kept)")
    words = page_tags(site, name, values)
    if words:  # the paper's tags, as its keywords are
        record.source_fields["keywords"] = ", ".join(
            filter(None, [record.source_fields.get("keywords", ""), *words])
        )
    image = featured_image(site, path, values)
    if image:
        site.paper_images[id(record)] = (image, name)
    site.records.append(record)


def _field(values: dict[str, Any], what: str) -> Any:
    """The page's field, by the map of Hugo's paper pages."""
    return field_value(values, HUGO_PUBLICATION, what)


def _cite_bib(site: Site, path: Path, shown: str) -> Record | None:
    """The paper as the cite.bib beside its page describes it, or None where there is none,
    it cannot be read, or it is not the paper the page shows (each named)."""
    bib = path.parent / "cite.bib"
    records: list[Record] = []
    if bib.is_file():
        try:
            records = read_bibtex(read_text(site, bib), site.name(bib))
        except Unreadable as unreadable:
            site.skipped.append(f"{unreadable} (the page's own fields are read instead)")
        except ImportProblem as problem:  # a cite.bib holding no entry ("None", blank)
            site.skipped.append(f"{problem} (the page's own fields are read instead)")
    if records and shown and not _same_paper(records[0].title, shown):
        site.no_home.append(
            f"{site.name(bib)}: not read (it describes another paper, “{records[0].title[:100]}”, "
            "copied from another page); the page's own fields are"
        )
        records = []
    if records and records[0].problems:  # what the site shows is the page, not its cite.bib
        site.no_home.append(
            f"{site.name(bib)}: not read ({'; '.join(records[0].problems)}); the page's own "
            "fields are"
        )
        records = []
    return records[0] if records else None


def _kind_and_venue(record: Record, values: dict[str, Any]) -> None:
    types = as_list(_field(values, "types"))
    kind = str(types[0]) if types else ""
    if not record.kind:
        record.kind = KINDS.get(kind) or NUMBERED_KINDS.get(kind) or Publication.Kind.OTHER
    venue = plain(_field(values, "venue")).removeprefix("In ").strip()
    short = plain(_field(values, "venue_short")).removeprefix("In ").strip()
    record.venue_name = record.venue_name or venue
    record.venue_short = record.venue_short or short
    record.date = record.date or date_of(_field(values, "date"))


def _identifiers(record: Record, values: dict[str, Any]) -> None:
    """The page's DOI (unescaped from the BibTeX it was copied from), Hugo Blox's arXiv id
    and its links."""
    doi = re.sub(r"\\([_&%#])", r"\1", str(_field(values, "doi") or "").strip())
    if doi and not record.doi:
        record.doi = clean_doi(doi)
        if not record.doi:
            record.dropped.append(f"invalid DOI “{doi[:200]}” (dropped)")
    ids = mapping_at(_field(values, "identifiers"), "ids")
    if ids.get("arxiv") and not record.arxiv_id:
        record.arxiv_id = str(ids["arxiv"])
    _apply_links(record, links_of(values))


def _authors(site: Site, record: Record, values: dict[str, Any]) -> None:
    """The page's list of authors, which names the site's people (cite.bib may not), with
    their notes (equal contribution, corresponding author)."""
    authors = author_names(site, _field(values, "authors"))
    if not authors:
        return
    notes = as_list(_field(values, "author_notes"))
    record.authors = []
    for position, printed in enumerate(authors):
        given, family = _split(printed)
        author = AuthorRecord(given=given, family=family)
        note = plain(notes[position]).lower() if position < len(notes) else ""
        if note in NOTES:
            setattr(author, NOTES[note], True)
        record.authors.append(author)


def _same_paper(title: str, other: str) -> bool:
    """Whether two titles name one paper: written alike, one holding the other (a subtitle
    left off), or edited by a few words (a site's own capitals and punctuation)."""
    a, b = (re.sub(r"[\W_]+", "", plain(t)).casefold() for t in (title, other))
    return not a or a in b or b in a or SequenceMatcher(None, a, b).ratio() >= 0.7


def _split(name: str) -> tuple[str, str]:
    given, _, family = name.strip().rpartition(" ")
    return given, family
