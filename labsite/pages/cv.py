"""A member's CV from the profile's own data: `/people/<slug>/cv/` and `cv.pdf`.

The HTML page and the PDF are one template (`people/_cv_body.html`): the PDF is that page
typeset by WeasyPrint, so both always say the same. Options, as query parameters: only the
selected papers (`selected=1`), papers since a year (`since=2020`), citation counts
(`citations=1`), authors shortened as on the profile (`authors=short`)."""

import logging
from dataclasses import dataclass
from functools import cache
from html import escape
from typing import NamedTuple
from urllib.parse import urlencode

from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.generic import DetailView

from lab.models import LabSettings
from labsite.pages.people import Section, profile_people, section_rows, talks_and_awards
from people.models import SectionIntroduction
from publications import listing
from publications.authors import CV, PROFILE, merge_legends
from publications.models import Publication

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Options:
    selected: bool = False
    since: int | None = None
    citations: bool = False
    short_authors: bool = False

    PARAMETERS = ("selected", "since", "citations", "authors")

    @classmethod
    def read(cls, params):
        since = params.get("since", "")
        return cls(
            selected=params.get("selected") == "1",
            since=int(since) if since.isdigit() and 1000 <= int(since) <= 9999 else None,
            citations=params.get("citations") == "1",
            short_authors=params.get("authors") == "short",
        )

    @property
    def query(self):
        """The options as a query string, for the PDF of what the page shows."""
        pairs = [("selected", "1")] if self.selected else []
        pairs += [("since", str(self.since))] if self.since else []
        pairs += [("citations", "1")] if self.citations else []
        pairs += [("authors", "short")] if self.short_authors else []
        return urlencode(pairs)


class CVView(DetailView):
    template_name = "people/cv.html"
    context_object_name = "person"
    query_parameters = Options.PARAMETERS  # what the page cache keys on

    def get_queryset(self):
        return profile_people()

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), **cv_context(self.object, self.request.GET)}


def cv_pdf(request, slug):
    """The CV as a PDF: real text, the person as its author, numbered pages."""
    from PIL import ImageFile

    try:
        from weasyprint import HTML  # loads Pango: only the PDF needs it
    except OSError:  # the system's Pango is missing (README: Install and start)
        logger.error("A CV's PDF needs Pango and fonts: apt-get install libpango-1.0-0 …")
        message = gettext("The PDF cannot be made on this server; the CV's page has it all.")
        return HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
    ImageFile.LOAD_TRUNCATED_IMAGES = False  # WeasyPrint turns it on; a CV has no images

    person = get_object_or_404(profile_people(), slug=slug)
    context = {**cv_context(person, request.GET), "person": person, "stylesheet": _stylesheet()}
    page = render_to_string("people/cv_pdf.html", context, request)
    # PDF/UA-1: a tagged PDF, its structure read by screen readers (pdfinfo: "Tagged: yes")
    html = HTML(string=page, base_url=request.build_absolute_uri("/"))
    pdf = html.write_pdf(pdf_variant="pdf/ua-1")
    return HttpResponse(
        pdf,
        content_type="application/pdf",
        headers={"Content-Disposition": f'inline; filename="{person.slug}-cv.pdf"'},
    )


cv_pdf.query_parameters = Options.PARAMETERS


@cache
def _stylesheet():
    with open(finders.find("labsite/cv.css"), encoding="utf-8") as file:
        return file.read()


class Publications(NamedTuple):
    legend: list
    groups: list  # (kind label, [an entry's HTML])

    def __bool__(self):
        return bool(self.groups)


_Kind = Publication.Kind
# A CV's heading over each kind of work, plural as CVs print them ("Conference papers (26)"),
# in the order of the kinds.
HEADINGS = {
    _Kind.CONFERENCE: _("Conference papers"),
    _Kind.JOURNAL: _("Journal articles"),
    _Kind.WORKSHOP: _("Workshop papers"),
    _Kind.PREPRINT: _("Preprints"),
    _Kind.POSTER: _("Posters"),
    _Kind.DEMO: _("Demos"),
    _Kind.THESIS: _("Theses"),
    _Kind.CHAPTER: _("Book chapters"),
    _Kind.BOOK: _("Books"),
    _Kind.REPORT: _("Technical reports"),
    _Kind.PATENT: _("Patents"),
    _Kind.OTHER: _("Other works"),
}


def cv_context(person, params):
    """What the CV shows of `person`, with the options `params` name: the profile's
    sections in a CV's order, every author of every paper listed."""
    options = Options.read(params)
    lab = LabSettings.load()
    papers = listing.papers(Publication.objects.published().for_person(person))
    if options.selected:
        papers = [p for p in papers if p.is_selected]
    if options.since:
        papers = [p for p in papers if p.year and p.year >= options.since]
    style = PROFILE if options.short_authors else CV
    patents = [p for p in papers if p.kind == Publication.Kind.PATENT]
    entries = listing.entries([p for p in papers if p not in patents], style, person, lab)
    kinds: dict[str, list] = {}
    for entry in entries:
        kinds.setdefault(entry.publication.kind, []).append(_cv_entry(entry, options))
    publications = Publications(
        legend=merge_legends(entries),
        groups=[(HEADINGS[kind], kinds[kind]) for kind in HEADINGS if kind in kinds],
    )
    rows = section_rows(person)
    talks, awards = talks_and_awards(person)
    S = SectionIntroduction.Section
    listed = [
        (S.EDUCATION, "people/sections/_timeline.html", rows["education"]),
        (S.EXPERIENCE, "people/sections/_timeline.html", rows["experience"]),
        (S.PUBLICATIONS, "people/_cv_publications.html", publications),
        (S.PATENTS, "publications/_patents.html", patents),
        (S.TALKS, "talks/_profile_talks.html", talks),
        (S.AWARDS, "talks/_profile_awards.html", awards),
        (S.PROJECTS, "people/sections/_projects.html", rows["projects"]),
        (S.CONTRIBUTIONS, "people/sections/_contributions.html", rows["contributions"]),
        (S.WRITING, "people/sections/_writing.html", rows["writing"]),
        (S.SERVICE, "people/sections/_service.html", rows["service"]),
    ]
    return {
        "options": options,
        "rows": rows,
        "sections": [
            Section(key.value, key.label, template, content)
            for key, template, content in listed
            if content
        ],
    }


def _cv_entry(entry, options):
    """The entry's HTML as a CV lists it: with its DOI as a link (what grant offices and
    committees follow; the list's own link buttons are not printed), and its citation count
    when the options ask for it."""
    paper = entry.publication
    extra = ""
    if paper.doi:
        extra += (
            f' <span class="cv-doi"><a href="{escape(paper.doi_url)}">'
            f"doi:{escape(paper.doi)}</a></span>"
        )
    if options.citations and paper.citation_count is not None:
        label = escape(gettext("Citations"))
        extra += f' <span class="cv-citations">{label}: {paper.citation_count:,}</span>'
    if not extra:
        return entry.html
    return mark_safe(entry.html.removesuffix("</li>\n") + extra + "</li>\n")
