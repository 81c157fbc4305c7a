"""How a paper is shown and cited: the title, venue label, pages, identifiers' addresses and
links that pages, lists and exports print, each derived from the paper's own fields."""

import re
from typing import TYPE_CHECKING, Any

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from core.weblinks import is_web_url, site_or_web_url
from lab.models import PublicationKind

if TYPE_CHECKING:
    from django.db.models.fields.files import FieldFile
    from django.utils.functional import _StrPromise

    from core.partial_dates import PartialDate
    from publications.models import Venue

_PAGE_DASH = re.compile(r"\s*[-–—]+\s*")


def split_pages(pages: str) -> tuple[str, str]:
    """("1", "38") from "1–38", "1--38" or "1 - 38"; ("e1234", "") from a single page."""
    parts = _PAGE_DASH.split(pages.strip()) if pages and pages.strip() else []
    return (parts[0], parts[1] if len(parts) > 1 else "") if parts else ("", "")


def format_pages(pages: str, dash: str = "–") -> str:
    """A page range with one kind of dash: "1–38" for pages, "1--38" for BibTeX."""
    first, last = split_pages(pages)
    return f"{first}{dash}{last}" if last else first


class PublicationPresentation:
    """What `Publication` prints of itself, kept apart from its fields and rules: a plain
    mixin (no fields, so no migration sees it), whose methods read the paper's fields."""

    if TYPE_CHECKING:  # the fields it reads, which `Publication` declares
        title: str
        kind: str
        venue: Venue | None
        date: PartialDate | None
        container_title: str
        pages: str
        publisher: str
        issn: str
        doi: str
        arxiv_id: str
        patent_number: str
        patent_jurisdiction: str
        slug: str
        pdf_file: FieldFile
        pdf_url: str
        url: str
        code_url: str
        slides_url: str
        video_url: str
        project_url: str
        poster_url: str
        supplement_url: str
        blog_url: str
        dataset_url: str
        other_url: str
        other_label: str
        award: str
        awards: Any  # the awards tied to it (talks.Award, whose app sits above this one)

        def get_kind_display(self) -> str: ...

    @property
    def display_title(self) -> str:
        if self.title:
            return self.title
        return f"{self.patent_jurisdiction} Patent {self.patent_number}".strip()

    @property
    def year(self) -> int | None:
        return self.date.year if self.date else None

    @property
    def venue_label(self) -> str:
        """ "EuroSys 2026", "OSDI 2018 (Poster)", "arXiv 2026": the short form lists print."""
        # a preprint known only by its arXiv id was posted on arXiv; a paper whose record
        # names no venue short enough to be one shows its own proceedings or journal title
        parts = [
            self.venue.short_name
            if self.venue
            else "arXiv"
            if self.arxiv_id
            else self.container_title
        ]
        if self.year:
            parts.append(str(self.year))
        label = " ".join(p for p in parts if p)
        if self.kind in (PublicationKind.POSTER, PublicationKind.DEMO):
            label = f"{label} ({self.get_kind_display()})"
        return label

    @property
    def container_name(self) -> str:
        """The paper's own proceedings or journal title, else its venue's full name, else ""."""
        return self.container_title or (self.venue.full_name if self.venue else "")

    @property
    def issns(self) -> list[str]:
        """The paper's ISSNs, else its venue's."""
        own = [i.strip() for i in self.issn.split(",") if i.strip()]
        return own or (self.venue.issns() if self.venue else [])

    @property
    def publisher_name(self) -> str:
        """The paper's own publisher, else its venue's, else ""."""
        return self.publisher or (self.venue.publisher if self.venue else "")

    @property
    def first_page(self) -> str:
        return split_pages(self.pages)[0]

    @property
    def last_page(self) -> str:
        return split_pages(self.pages)[1]

    @property
    def doi_url(self) -> str:
        return f"https://doi.org/{self.doi}" if self.doi else ""

    @property
    def arxiv_url(self) -> str:
        return f"https://arxiv.org/abs/{self.arxiv_id}" if self.arxiv_id else ""

    def award_labels(self) -> list[str]:
        """The award note and the names of published awards tied to this paper, once each.
        Reads `awards`, which `for_listing()` prefetches."""
        labels = [a.name for a in self.awards.all() if a.is_published]
        if self.award and self.award not in labels:
            labels.insert(0, self.award)
        return labels

    def links(self) -> "list[tuple[str | _StrPromise, str]]":
        """(label, url) pairs for the buttons under a paper, in a fixed order."""
        hosted = self.hosted_pdf_url
        pdf = hosted or self.pdf_url
        # a site path as the page's language has it ("/zh-hans/posts/…"), "" if not a link
        slides, project, blog = map(
            site_or_web_url, (self.slides_url, self.project_url, self.blog_url)
        )
        candidates: list[tuple[str | _StrPromise, str]] = [
            ("PDF", pdf),
            (_("Page"), self.url),
            (_("Code"), self.code_url),
            ("arXiv", self.arxiv_url),
            ("DOI", self.doi_url),
            (_("Slides"), slides),
            (_("Video"), self.video_url),
            (_("Project"), project),
            (_("Poster"), self.poster_url),
            (_("Supplement"), self.supplement_url),
            (_("Blog"), blog),
            (_("Dataset"), self.dataset_url),
            (self.other_label or _("Link"), self.other_url),
        ]
        return [
            (label, url)
            for label, url in candidates
            if url and (url in (hosted, slides, project, blog) or is_web_url(url))
        ]

    @property
    def hosted_pdf_url(self) -> str:
        """The address of the PDF stored here (served by `publications:pdf`), or ""."""
        return reverse("publications:pdf", kwargs={"slug": self.slug}) if self.pdf_file else ""
