"""Where a BibTeX entry's identifiers and links go: its DOI and arXiv id however the entry
gives them, the paper's page and PDF, and al-folio's link fields, each to its home in the
record or, when that is taken, kept with the paper."""

import re

from core.weblinks import is_web_url
from publications.importing import bibtex_fields as fields_of
from publications.importing.bibtex_values import EntryValues
from publications.importing.records import Kind, arxiv_id_of_doi, clean_doi, squash
from publications.models import Publication

_ARXIV_ID = re.compile(r"^(?:arxiv:)?(\d{4}\.\d{4,5}(?:v\d+)?)$", re.IGNORECASE)
_ARXIV_IN_TEXT = re.compile(r"arxiv(?:\.org)?[:\s/]*(?:abs/|pdf/)?(\d{4}\.\d{4,5})", re.IGNORECASE)


class EntryLinks(EntryValues):
    """The reader's steps (`bibtex._EntryReader`) for an entry's identifiers and links."""

    def _identifiers(self) -> None:
        record = self.record
        # LaTeX escapes a DOI's "_" ("10.1007/978-3-030-58548-8\_15", as DBLP writes it)
        raw_doi = re.sub(r"\\([_&%#])", r"\1", self.raw("doi").strip("{}"))
        if raw_doi:
            record.doi = clean_doi(raw_doi) or clean_doi(fields_of.doi_in_text(raw_doi))
            if not record.doi:
                record.problems.append(f"invalid DOI “{raw_doi[:200]}”")
        url = self.raw("url")
        if fields_of.is_doi_link(url):
            doi = clean_doi(fields_of.doi_in_text(url))
            if doi and not record.doi:
                record.doi = doi
                record.readings.append("DOI read from its url")
            url = ""  # the DOI's own link: the DOI is its home
        for name in ("note", "howpublished"):
            doi = clean_doi(fields_of.doi_in_text(self.raw(name)))
            if doi and not record.doi:
                record.doi = doi
                record.readings.append(f"DOI read from its {name}")
        if url and url.lower().split("?")[0].endswith(".pdf") and is_web_url(url):
            record.pdf_url = url
        elif url and is_web_url(url):
            record.url = url
        elif url:
            record.dropped.append(f"url “{url[:100]}”: not a web address")

    def _links(self) -> None:
        record = self.record
        for name, home in fields_of.LINK_HOMES.items():
            value = self.raw(name) if name in self.fields else ""
            if not value:
                continue
            if not is_web_url(value):
                if "://" in value or value.lower().startswith(("javascript:", "data:")):
                    record.dropped.append(f"{name} “{value[:100]}”: not a web address")
                else:
                    record.files.append(f"{name} “{value[:100]}”")
                continue
            if name == "html" and _ARXIV_IN_TEXT.search(value):
                continue  # the arXiv page, which the paper's arXiv id links to
            if name == "html" and record.url and record.url != value:
                # al-folio shows `html` as the paper's page; its `url` is the template's
                record.source_fields["url"], record.url = record.url, value
                continue
            if getattr(record, home) and getattr(record, home) != value:
                record.source_fields[name] = value  # its home is taken by another link
            elif not getattr(record, home):
                setattr(record, home, value)
        hal = squash(self.raw("hal"))
        if hal:
            record.source_fields["hal"] = hal
            if re.match(r"^hal-\d+(?:v\d+)?$", hal) and not record.other_url:
                record.other_url, record.other_label = f"https://hal.science/{hal}", "HAL"

    def _arxiv(self) -> None:
        """An arXiv preprint, however the entry says so (al-folio's arxiv, eprint with
        archivePrefix or eprinttype, "arXiv preprint arXiv:…" or DBLP's "CoRR" as journal,
        arXiv's DOI), gets its id, and with no other venue the preprint server "arXiv"."""
        record = self.record
        prefix = (self.raw("archiveprefix") or self.raw("eprinttype")).lower()
        match = _ARXIV_ID.match(self.raw("arxiv")) or (
            _ARXIV_ID.match(self.raw("eprint")) if prefix in ("arxiv", "") else None
        )
        if not match:
            text = f"{record.venue_name} {self.raw('volume')} {record.url} {self.raw('html')}"
            match = _ARXIV_IN_TEXT.search(text)
        record.arxiv_id = (match[1] if match else "") or arxiv_id_of_doi(record.doi)
        if not record.arxiv_id:
            return
        if record.url and record.arxiv_id in record.url and "arxiv.org" in record.url:
            record.url = ""  # the arXiv page, which the id links to
        venue = record.venue_name.casefold()
        if not venue or venue == "corr" or venue.startswith("arxiv"):
            record.venue_name, record.volume = "arXiv", ""
            if record.venue_short.casefold() not in ("", "arxiv", "corr"):
                record.dropped.append(
                    f"abbr “{record.venue_short}”: the paper is an arXiv preprint"
                )
            record.venue_short = ""
            if record.kind in (Kind.OTHER, Kind.JOURNAL, Kind.PREPRINT):
                record.kind, record.status = Kind.PREPRINT, Publication.Status.PREPRINT
