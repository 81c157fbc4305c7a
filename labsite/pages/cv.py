"""A member's CV from the profile's own data: `/people/<slug>/cv/` and `cv.pdf`.

The HTML page and the PDF are one template (`people/_cv_body.html`): the PDF is that page
typeset by WeasyPrint, so both always say the same. Options, as query parameters: only the
selected papers (`selected=1`), papers since a year (`since=2020`), citation counts
(`citations=1`), authors shortened as on the profile (`authors=short`).

The years `since` takes are the years the member's papers are dated in (the page offers
those): any other year lists the same papers as the first of them after it, and is sent
there (301), so a visitor varying the year makes no new PDF."""

import contextlib
import functools
import hashlib
import io
import logging
from dataclasses import dataclass, replace
from html import escape
from pathlib import Path
from typing import NamedTuple, cast
from urllib.parse import urlencode

from django.apps import apps
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.handlers.wsgi import WSGIRequest
from django.db.models import Max
from django.http import HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.urls import get_script_prefix, resolve, reverse, set_script_prefix
from django.utils import timezone, translation
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.generic import DetailView
from django_tasks import task
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from lab.models import LabSettings
from labsite.page_cache import STATIC_EXPORT_KEY, content_version
from labsite.pages.people import (
    Section,
    courses_taught,
    profile_people,
    section_rows,
    talks_and_awards,
)
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

    def canonical(self, years):
        """These options as the site links them for a member whose papers are dated in
        `years`: `since` moved on to the first of those years from it (the same papers
        listed), or back to the last when none is (the nearest), or dropped when the member
        has no dated paper."""
        if self.since is None:
            return self
        later = [year for year in years if year >= self.since]
        since = min(later) if later else max(years, default=None)
        return replace(self, since=since)


def paper_years(person):
    """The years `person`'s published papers are dated in, newest first (one query): the
    years a CV's `since` takes."""
    dates = Publication.objects.published().for_person(person).values_list("date", flat=True)
    return sorted({date.year for date in dates if date}, reverse=True)


def _elsewhere(request, options):
    """A 301 to the canonical address of `options` when the request asked for it in
    other words or values, else None."""
    query = options.query
    if query == request.META.get("QUERY_STRING", ""):
        return None
    return HttpResponsePermanentRedirect(request.path + (f"?{query}" if query else ""))


class CVView(DetailView):
    template_name = "people/cv.html"
    context_object_name = "person"

    @staticmethod
    def canonical_query(params):  # what the page cache keys on
        return Options.read(params).query

    def get_queryset(self):
        return profile_people()

    def get(self, request, *args, **kwargs):
        self.object = self.get_object()
        self.years = paper_years(self.object)
        options = Options.read(request.GET).canonical(self.years)
        if elsewhere := _elsewhere(request, options):
            return elsewhere
        return self.render_to_response(self.get_context_data(object=self.object))

    def get_context_data(self, **kwargs):
        context = cv_context(self.object, self.request.GET)
        return {**super().get_context_data(**kwargs), **context, "since_years": self.years}


def cv_pdf(request, slug):
    """The CV as a PDF (real text, the person as its author, numbered pages), as the task
    worker laid it out and stored it: no request lays out a PDF (seconds to a minute, and
    most of a gigabyte, for a long publication list). Only the PDFs the CV's page links are
    made: options it does not offer are sent to the nearest it does (301). Before the
    worker has made the PDF of what the CV now says, the request queues it and is answered
    at once, without laying out or rendering the CV: 503, with Retry-After, a link to the
    CV's page and the PDF made before."""
    person = get_object_or_404(profile_people(), slug=slug)
    try:
        import weasyprint  # noqa: F401 (loads Pango: only the PDF needs it)
    except OSError:  # the system's Pango is missing (README: Install and start)
        logger.error("A CV's PDF needs Pango and fonts: apt-get install libpango-1.0-0 …")
        text = gettext("The PDF cannot be made on this server; the CV's page has it all.")
        url = _cv_page_url(person, request)
        message = format_html('{} <a href="{}">{}</a>', text, url, url)
        return _without_pdf(person, message)
    options = Options.read(request.GET).canonical(paper_years(person))
    if elsewhere := _elsewhere(request, options):
        return elsewhere
    name = _pdf_name(person, request)
    if not default_storage.exists(name):
        if STATIC_EXPORT_KEY in request.META:  # the operator's static copy waits for it
            name = build_pdf.call(**_build_arguments(person, request)) or name
        else:
            name = _queue_pdf(person, request, name)
        if not default_storage.exists(name):  # unless it was made in place
            return _pdf_pending(person, request, name)
    with default_storage.open(name) as file:
        pdf = file.read()
    return HttpResponse(
        pdf,
        content_type="application/pdf",
        headers={"Content-Disposition": f'inline; filename="{person.slug}-cv.pdf"'},
    )


cv_pdf.canonical_query = CVView.canonical_query  # type: ignore[attr-defined]

PDF_FOLDER = "cv"
PDF_RETRY_AFTER = 10  # seconds: a CV's PDF takes the worker one to a few dozen
PDF_QUEUE_LIMIT = 20  # PDFs waiting for the worker at once; past it, none is queued
# A member's own PDF (the one the profile links, without options) in each language is
# queued whatever waits, and goes first: no flood of other variants keeps it from being made.
PDF_DEFAULT_PRIORITY = 50
PDF_VARIANTS_KEPT = 3  # PDFs with options kept per member, beside the default ones
_QUEUED = "labsite:cv-pdf-queued:"


def _pdf_page(person, request):
    """The HTML the PDF is laid out from: what the CV shows with the request's options, in
    its language, with links on the request's host. Queries as the CV's page does."""
    context = {**cv_context(person, request.GET), "person": person, "stylesheet": _stylesheet()}
    return render_to_string("people/cv_pdf.html", context, request)


def _pdf_name(person, request):
    """Where the PDF of what `_pdf_page` says is stored, named without laying out the CV
    (one query): by its language and options, and by a digest of all it is made from
    besides them: the content version (which any change to the lab's content moves), this
    release's code, templates and translations, and the address its links name. So a
    change to anything the CV may show names a PDF not yet made."""
    options = Options.read(request.GET).query or "all"
    made_from = "|".join(
        [
            str(content_version()),
            _release_stamp(),
            request.build_absolute_uri("/"),
            get_script_prefix(),
            options,
        ]
    )
    digest = hashlib.blake2b(made_from.encode(), digest_size=16).hexdigest()
    return f"{PDF_FOLDER}/{person.slug}/{_variant(request, options)}-{digest}.pdf"


@functools.cache
def _release_stamp():
    """A digest of the project's own code, templates, translations and stylesheet, read
    once per process (a release restarts the processes): a release that changes how a CV
    reads names PDFs not yet made, as a content change does."""
    digest = hashlib.blake2b(digest_size=16)
    root = Path(settings.BASE_DIR)
    folders = [Path(config.path) for config in apps.get_app_configs()]
    folders = [  # the project's own apps, not installed ones
        folder
        for folder in folders
        if folder.parent == root and not {"site-packages", "dist-packages"} & set(folder.parts)
    ]
    folders += [Path(folder) for folder in cast(list[str], settings.TEMPLATES[0]["DIRS"])]
    folders += [Path(folder) for folder in settings.LOCALE_PATHS]
    files = {
        path
        for folder in folders
        for path in folder.rglob("*")
        if path.suffix in {".py", ".html", ".mo"} and path.is_file()
    }
    for path in sorted(files):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    digest.update(_stylesheet().encode())
    return digest.hexdigest()


def _variant(request, options):
    """The language and options of a PDF, as the start of its file's name."""
    language = translation.get_language() or "en"
    return f"{language}-{hashlib.blake2b(options.encode(), digest_size=4).hexdigest()}"


def _queue_pdf(person, request, name):
    """Queue the PDF `name` for the worker, once (while the cache answers), and return
    where it is stored: `name`, or where a queue that runs tasks in place stored it (the
    lab's settings, made on their first read, move the content version). A PDF with
    options is queued only while fewer than PDF_QUEUE_LIMIT PDFs wait (no visitor decides
    how much work waits); a member's default PDF always, ahead of the others. The "queued"
    mark is set only once the task is queued: set before the limit was checked, it kept a
    refused PDF from being queued for ten minutes."""
    default = not Options.read(request.GET).query
    try:
        if cache.get(_QUEUED + name):
            return name
    except Exception:  # the cache does not answer: the limit below still holds
        logger.warning("The cache does not answer: a CV's PDF is queued unchecked")
    if not default:
        waiting = DBTaskResult.objects.ready().filter(task_path=build_pdf.module_path).count()
        if waiting >= PDF_QUEUE_LIMIT:
            logger.warning("%s CV PDFs already wait for the worker: %s not queued", waiting, name)
            return name
    try:
        if not cache.add(_QUEUED + name, True, 600):
            return name  # another request queued it meanwhile
    except Exception:
        pass
    queued = build_pdf.using(priority=PDF_DEFAULT_PRIORITY) if default else build_pdf
    result = queued.enqueue(**_build_arguments(person, request))
    if getattr(result, "status", None) == TaskResultStatus.SUCCESSFUL:
        return result.return_value or name  # run in place (TASKS_BACKEND "immediate")
    return name


def _build_arguments(person, request):
    return {
        "slug": person.slug,
        "language": translation.get_language() or "en",
        "query": request.META.get("QUERY_STRING", ""),
        "scheme": request.scheme,
        "host": request.get_host(),
        "script_name": request.META.get("SCRIPT_NAME", ""),
    }


def _pdf_pending(person, request, name):
    """503 with Retry-After, as a page a person reads: the PDF is being made, the CV's page
    has it all now, and the PDF made before (of the same options and language) while it is
    still stored."""
    url = _cv_page_url(person, request)
    text = gettext(
        "This CV's PDF is being made; ask again in a few seconds. The CV's page has it all "
        "now: %(url)s"
    )
    before, _, after = text.partition("%(url)s")
    folder, stored = name.rsplit("/", 1)
    variant = stored.rsplit("-", 1)[0] + "-"
    previous = None
    with contextlib.suppress(OSError):
        older = [n for n in default_storage.listdir(folder)[1] if n.startswith(variant)]
        previous = f"{folder}/{older[0]}" if older else None
    message = format_html('{}<a href="{}">{}</a>{}', before, url, url, after)
    response = _without_pdf(person, message, previous)
    response["Retry-After"] = str(PDF_RETRY_AFTER)
    return response


def _cv_page_url(person, request):
    """The CV's page with the options the PDF was asked with: what the PDF would say."""
    query = Options.read(request.GET).query
    url = reverse("people:cv", args=[person.slug]) + (f"?{query}" if query else "")
    return request.build_absolute_uri(url)


def _without_pdf(person, message, previous=None):
    """503 as a page a person reads, in their language: `message`, and the PDF stored at
    `previous`. Reads nothing more (no context processors)."""
    context = {
        "person_name": person.name,
        "message": message,
        "previous": default_storage.url(previous) if previous else None,
        "previous_made": _modified(previous) if previous else None,
    }
    return HttpResponse(render_to_string("people/cv_pdf_pending.html", context), status=503)


def _modified(name):
    try:
        return default_storage.get_modified_time(name)
    except (OSError, NotImplementedError):
        return None


@task()
def build_pdf(
    slug: str, language: str, query: str, scheme: str, host: str, script_name: str = ""
) -> str:
    """The task worker's part: lay out the PDF of `slug`'s CV as a request with these
    language, options and host would ask for it, store it, and remove that CV's older PDFs
    of the same language and options. Returns the stored name ("" when the member is
    gone or not public)."""
    from PIL import ImageFile

    ImageFile.LOAD_TRUNCATED_IMAGES = False  # WeasyPrint turns it on; a CV has no images
    prefix = get_script_prefix()
    set_script_prefix(script_name + "/")  # links as the visitor's site names them
    try:
        with translation.override(language):
            return _build_pdf(slug, _worker_request(slug, query, scheme, host, script_name))
    finally:
        set_script_prefix(prefix)


def _build_pdf(slug, request):
    from weasyprint import HTML

    person = profile_people().filter(slug=slug).first()
    if person is None:
        return ""
    LabSettings.load()  # made on its first read, which moves the content version: first
    name = _pdf_name(person, request)  # then: a change during the layout names a newer PDF
    if not default_storage.exists(name):
        page = _pdf_page(person, request)
        # PDF/UA-1: a tagged PDF, its structure read by screen readers (pdfinfo: "Tagged: yes")
        html = HTML(string=page, base_url=request.build_absolute_uri("/"))
        pdf = html.write_pdf(pdf_variant="pdf/ua-1")
        default_storage.save(name, ContentFile(pdf))
    folder, stored = name.rsplit("/", 1)
    variant = stored.rsplit("-", 1)[0] + "-"
    for older in default_storage.listdir(folder)[1]:
        if older.startswith(variant) and older != stored:
            default_storage.delete(f"{folder}/{older}")
    _keep_few_variants(folder, stored)
    with contextlib.suppress(Exception):  # else it ages out
        cache.delete(_QUEUED + name)
    return name


def _default_prefixes():
    """The start of the names of the default PDFs (no options), one per language."""
    return tuple(
        f"{code}-{hashlib.blake2b(b'all', digest_size=4).hexdigest()}-"
        for code, _name in settings.LANGUAGES
    )


def _keep_few_variants(folder, stored):
    """At most PDF_VARIANTS_KEPT PDFs with options per member stay on disk (the newest, and
    always the one just made), beside the default ones: a visitor varying the options
    cannot fill the disk (a variant is about 300 KB, and 144,000 were possible)."""
    defaults = _default_prefixes()
    others = [n for n in default_storage.listdir(folder)[1] if not n.startswith(defaults)]
    if len(others) <= PDF_VARIANTS_KEPT:
        return

    def made(name):
        try:
            return default_storage.get_modified_time(f"{folder}/{name}")
        except (OSError, NotImplementedError):
            return timezone.now()

    others.sort(key=lambda n: (n == stored, made(n)), reverse=True)
    for name in others[PDF_VARIANTS_KEPT:]:
        default_storage.delete(f"{folder}/{name}")


def _worker_request(slug, query, scheme, host, script_name):
    """A GET of the CV's PDF as a visitor made it, for the templates (links, language)."""
    path = reverse("people:cv-pdf", args=[slug]).removeprefix(script_name)
    request = WSGIRequest(
        {
            "REQUEST_METHOD": "GET",
            "SCRIPT_NAME": script_name,
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "HTTP_HOST": host,
            "SERVER_NAME": host.rsplit(":", 1)[0],
            "SERVER_PORT": "443" if scheme == "https" else "80",
            "wsgi.url_scheme": scheme,
            "wsgi.input": io.BytesIO(),
        }
    )
    request.resolver_match = resolve(path)
    return request


@functools.cache
def _stylesheet():
    found = finders.find("labsite/cv.css")
    if not isinstance(found, str):  # None when missing (a list only when all are asked for)
        raise ImproperlyConfigured("The stylesheet labsite/cv.css is not among the static files.")
    with open(found, encoding="utf-8") as file:
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
    courses = courses_taught(person)
    S = SectionIntroduction.Section
    parts = {  # each part's partial and content, in the member's order below
        S.EDUCATION: ("people/sections/_timeline.html", rows["education"]),
        S.EXPERIENCE: ("people/sections/_timeline.html", rows["experience"]),
        S.PUBLICATIONS: ("people/_cv_publications.html", publications),
        S.PATENTS: ("publications/_patents.html", patents),
        S.TALKS: ("talks/_profile_talks.html", talks),
        S.TEACHING: ("website/_profile_courses.html", courses),
        S.AWARDS: ("talks/_profile_awards.html", awards),
        S.PROJECTS: ("people/sections/_projects.html", rows["projects"]),
        S.CONTRIBUTIONS: ("people/sections/_contributions.html", rows["contributions"]),
        S.WRITING: ("people/sections/_writing.html", rows["writing"]),
        S.SERVICE: ("people/sections/_service.html", rows["service"]),
    }
    return {
        "options": options,
        "rows": rows,
        "sections": [
            Section(key, S(key).label, *parts[S(key)])
            for key in person.cv_section_order()
            if parts[S(key)][1]
        ],
        "updated": _last_updated(person, papers, talks, awards, courses, *rows.values()),
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


def _last_updated(person, papers, *groups):
    """The day anything the CV lists last changed: the papers' own stamps, and the latest
    history record of the person and of each row shown (one query per kind of row the
    person has: education, talks, awards, …). None when nothing says."""
    stamps = [paper.updated for paper in papers if paper.updated]
    for rows in [[person], *groups]:
        rows = [row for row in rows if hasattr(type(row), "history")]
        if rows:
            history = type(rows[0]).history.filter(id__in=[row.pk for row in rows])
            stamps.append(history.aggregate(latest=Max("history_date"))["latest"])
    stamps = [stamp for stamp in stamps if stamp]
    return timezone.localdate(max(stamps)) if stamps else None
