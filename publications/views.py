"""Public publication pages: the lab's list with filters, a paper's page, exports, the feed."""

import datetime

from django import forms
from django.contrib.syndication.views import Feed
from django.db.models import F
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.views.generic import DetailView, ListView

from core import queries
from core.documents import serve_pdf
from core.feeds import PartialDateFeed
from core.json_ld import json_ld
from core.partial_dates import years
from core.templatetags.labsite import partial_date
from core.weblinks import is_web_url
from lab.models import LabSettings
from people.models import Person
from publications import exports, listing, roles
from publications.authors import DETAIL, FEED, LIST, author_list, merge_legends
from publications.exports import FORMATS, roles_note, to_bibtex
from publications.models import Publication, Venue, printed_names
from publications.profile import ProfilePapers
from tags.forms import TagFilterField


class PublicationFilter(forms.Form):
    """The list's filters; exports of a filtered list take the same parameters."""

    q = forms.CharField(required=False, label=_("Search"), max_length=200)
    year = forms.TypedChoiceField(label=_("Year"), required=False, coerce=int, empty_value=None)
    kind = forms.ChoiceField(
        label=_("Kind"), required=False, choices=[("", _("Any kind")), *Publication.Kind.choices]
    )
    venue = forms.ModelChoiceField(
        label=_("Venue"),
        required=False,
        queryset=Venue.objects.all(),
        to_field_name="short_name",
        empty_label=_("Any venue"),
    )
    member = forms.ModelChoiceField(
        label=_("Member"),
        required=False,
        queryset=Person.objects.published(),
        to_field_name="slug",
        empty_label=_("Any member"),
    )
    role = forms.ChoiceField(
        label=_("Role"), required=False, choices=[("", _("Any role")), *roles.CHOICES]
    )
    tag = TagFilterField()
    # Shown as the "All / Selected" tabs above the form, kept by it as a hidden field.
    selected = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # asked again for each form: who is shown depends on the settings (PERSONAL_SITE)
        self.fields["member"].queryset = Person.objects.published()
        found = years(Publication.objects.published())
        self.fields["year"].choices = [("", _("Any year")), *((int(y), y) for y in found)]
        shown = Publication.objects.published().values("pk")
        self.fields["tag"].carried_by("publications", shown)

    def apply(self, publications):
        """Narrow `publications` by every filter that is valid; invalid ones show an error."""
        self.is_valid()
        data = {k: v for k, v in self.cleaned_data.items() if v not in (None, "", False)}
        if "q" in data:
            publications = publications.search(data["q"])
        if "year" in data:
            publications = publications.in_year(data["year"])
        if "kind" in data:
            publications = publications.filter(kind=data["kind"])
        if "venue" in data:
            publications = publications.filter(venue=data["venue"])
        if "role" in data:
            publications = publications.with_role(data["role"], data.get("member"))
        elif "member" in data:
            publications = publications.for_person(data["member"])
        if "tag" in data:
            publications = publications.filter(tags=data["tag"])
        if "selected" in data:
            publications = publications.filter(is_selected=True)
        return publications

    @property
    def chosen_member(self):
        """The member the list is narrowed to, whose authorship the list highlights."""
        return self.cleaned_data.get("member") if hasattr(self, "cleaned_data") else None


def filtered_publications(params):
    """The lab's public publications narrowed by request parameters, and the filter form."""
    form = PublicationFilter(params)
    return form.apply(Publication.objects.published()), form


class PublicationListView(ListView):
    """The lab's publications, newest first, filterable and paginated."""

    template_name = "publications/list.html"
    paginate_by = 50

    @staticmethod
    def canonical_query(params):  # what the page cache keys on
        return queries.encode(
            queries.paginated(queries.form_pairs(PublicationFilter(params)), params)
        )

    def get_queryset(self):
        publications, self.filter_form = filtered_publications(self.request.GET)
        return publications

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        member = self.filter_form.chosen_member
        entries = listing.entries(listing.papers(context["object_list"]), LIST, member)
        params = self.request.GET.copy()
        params.pop("page", None)
        context.update(
            entries=entries,
            legend=merge_legends(entries),
            filter_form=self.filter_form,
            query_string=params.urlencode(),
            is_filtered=bool(params),
        )
        return context


class PublicationDetailView(DetailView):
    """A paper's page: full author list, abstract, links, a Cite block, and metadata."""

    template_name = "publications/detail.html"
    context_object_name = "publication"

    def get_queryset(self):
        return Publication.objects.published().for_listing()

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        publication = self.object
        authors = author_list(publication, DETAIL)
        context.update(
            authors=authors,
            bibtex=to_bibtex([publication]),
            json_ld=mark_safe(json_ld(_scholarly_article(self.request, publication, authors))),
            venue_parts=_venue_parts(publication),
            pdf_url=self.request.build_absolute_uri(publication.hosted_pdf_url)
            if publication.pdf_file
            else publication.pdf_url
            if is_web_url(publication.pdf_url)
            else "",
        )
        return context


def pdf(request, slug):
    """The PDF stored for a paper, served so that it can only ever be shown as a PDF."""
    publication = get_object_or_404(Publication.objects.published().exclude(pdf_file=""), slug=slug)
    try:
        return serve_pdf(publication.pdf_file, f"{publication.slug}.pdf")
    except FileNotFoundError:
        raise Http404("The PDF file is missing.") from None


def publication_by_id(request, pk):
    """/publications/<id>/ redirects to the paper's permanent slug address."""
    return redirect(get_object_or_404(Publication.objects.published(), pk=pk), permanent=True)


def _venue_parts(publication):
    """The pieces of a paper's venue line, each HTML, to be joined by commas: its proceedings
    or journal (linked to the venue's site), series, place, volume, issue, pages and date,
    those it has (a paper with no container starts at its date, not at a comma)."""
    parts = []
    container, venue = publication.container_name, publication.venue
    if container:
        shown = (
            format_html('<a href="{}">{}</a>', venue.url, container)
            if venue and is_web_url(venue.url)
            else escape(container)
        )
        if venue and venue.short_name not in container:
            shown = format_html("{} ({})", shown, venue.short_name)
        parts.append(shown)
    if publication.kind in (Publication.Kind.THESIS, Publication.Kind.REPORT):
        # the university or institution a thesis or report is from says where it stands
        parts += [escape(publication.publisher_name)] if publication.publisher_name else []
    parts += [escape(v) for v in (publication.series, publication.address) if v]
    for key, text in (
        ("volume", _("vol. %(volume)s")),
        ("issue", _("no. %(issue)s")),
        ("pages", _("pp. %(pages)s")),
    ):
        if value := getattr(publication, key):
            parts.append(escape(text % {key: value}))
    if publication.date:
        parts.append(partial_date(publication.date))
    return parts


# schema.org types of the kinds that are not articles; a patent has no type of its own there.
_SCHEMA_TYPES = {
    Publication.Kind.THESIS: "Thesis",
    Publication.Kind.BOOK: "Book",
    Publication.Kind.CHAPTER: "Chapter",
    Publication.Kind.REPORT: "Report",
    Publication.Kind.PATENT: "CreativeWork",
}


def _scholarly_article(request, publication, authors):
    """schema.org description for search engines (a ScholarlyArticle unless the kind has a
    type of its own); authors carry their ORCID as @id."""
    data = {
        "@context": "https://schema.org",
        "@type": _SCHEMA_TYPES.get(publication.kind, "ScholarlyArticle"),
        "headline": publication.display_title[:110],
        "name": publication.display_title,
        "url": request.build_absolute_uri(publication.get_absolute_url()),
        "author": [
            {
                "@type": "Organization" if n.is_organization else "Person",
                "name": printed_names(n.given, n.family)[0],  # "马腾", family name first
                **({"@id": f"https://orcid.org/{n.orcid}"} if n.orcid else {}),
                **({"url": request.build_absolute_uri(n.url)} if n.url else {}),
            }
            for n in authors.authors()
        ],
    }
    if publication.date:
        data["datePublished"] = publication.date.isoformat()
    venue = publication.venue
    if venue and publication.kind == Publication.Kind.PREPRINT:  # posted on a server
        data["publisher"] = {"@type": "Organization", "name": venue.full_name}
    elif venue and publication.kind != Publication.Kind.PATENT:
        # A journal is a Periodical; proceedings (conference, workshop, preprint server)
        # are the volume the paper is printed in, not the event itself.
        data["isPartOf"] = {"@type": "Periodical" if venue.is_journal else "Book"}
        data["isPartOf"]["name"] = publication.container_name
        if publication.issns:
            data["isPartOf"]["issn"] = publication.issns
    if publication.kind in (Publication.Kind.THESIS, Publication.Kind.REPORT):
        if publication.publisher_name:  # the university, the institution
            data["sourceOrganization"] = {
                "@type": "Organization",
                "name": publication.publisher_name,
            }
        if publication.kind == Publication.Kind.REPORT and publication.issue:
            data["reportNumber"] = publication.issue
    if publication.kind == Publication.Kind.PATENT and publication.patent_number:
        data["identifier"] = publication.display_title
    if publication.doi:
        data["sameAs"] = publication.doi_url
        data["identifier"] = {  # a DOI, where a patent has none
            "@type": "PropertyValue",
            "propertyID": "DOI",
            "value": publication.doi,
        }
    if publication.abstract:
        data["abstract"] = publication.abstract
    if credit := roles_note(authors):  # schema.org has no authorship roles; this text says them
        data["creditText"] = credit
    if publication.featured_image:
        data["image"] = request.build_absolute_uri(publication.featured_image.share_image.url)
    return data


def _export_response(text, fmt, filename):
    response = HttpResponse(text, content_type=FORMATS[fmt].content_type)
    response["Content-Disposition"] = f'inline; filename="{filename}.{fmt}"'
    return response


def export_list(request, fmt):
    """The lab's list, with the same filters as the page, as BibTeX, RIS or CSL-JSON."""
    _known_format(fmt)
    publications, _ = filtered_publications(request.GET)
    return _export_response(exports.export(fmt, publications), fmt, "publications")


export_list.canonical_query = lambda params: queries.encode(  # type: ignore[attr-defined]
    queries.form_pairs(PublicationFilter(params))
)


def _known_format(fmt):
    if fmt not in FORMATS:
        raise Http404("Unknown export format")


def export_one(request, slug, fmt):
    _known_format(fmt)
    paper = get_object_or_404(Publication.objects.published(), slug=slug)
    text = exports.export(fmt, Publication.objects.filter(pk=paper.pk))
    return _export_response(text, fmt, slug)


def export_person(request, slug, fmt):
    """What a member's profile lists, as BibTeX, RIS or CSL-JSON: everything they authored,
    or with the profile's filters (?kind=journal, ?role=co-first) the papers it then shows."""
    _known_format(fmt)
    person = get_object_or_404(Person.objects.published(), slug=slug)
    papers = Publication.objects.published().for_person(person)
    if not (request.GET.get("kind") or request.GET.get("role")):
        return _export_response(exports.export(fmt, papers), fmt, slug)
    shown = ProfilePapers.build(person, listing.papers(papers), request.GET).entries
    return _export_response(exports.write(fmt, [e.publication for e in shown]), fmt, slug)


export_person.canonical_query = ProfilePapers.canonical_query  # type: ignore[attr-defined]


class LatestPublicationsFeed(Feed):
    """The newest publications, for feed readers; authors as the one renderer prints them,
    each dated at its precision (`dc:date`: "2024" for a year alone)."""

    feed_type = PartialDateFeed

    def item_extra_kwargs(self, publication):
        return {"partial_date": publication.date}

    def title(self):
        return _("%(lab)s: publications") % {"lab": LabSettings.load().name}

    def link(self):
        return reverse("publications:list")

    def description(self):
        return _("New publications from %(lab)s.") % {"lab": LabSettings.load().name}

    def items(self):
        """Newest by publication date (the order of the lists), not by when they were
        entered: an import of old papers must not read as news."""
        return (
            Publication.objects.published()
            .for_listing()
            .order_by(F("date").desc(nulls_last=True), "-created")[:30]
        )

    def item_title(self, publication):
        return publication.display_title

    def item_description(self, publication):
        # Feed readers read a description as HTML: names and venues go in escaped. Each
        # part ends in one full stop ("et al." keeps its own), and an empty part is left out.
        parts = [author_list(publication, FEED).plain(), publication.venue_label]
        return escape(" ".join(p if p.endswith(".") else f"{p}." for p in parts if p))

    def item_pubdate(self, publication):
        """The publication date when known to the month (its first day when the day is
        not known); none for a year alone, rather than a made-up 1 January."""
        date = publication.date
        if date is None or not date.month:
            return None
        return datetime.datetime(date.year, date.month, date.day or 1, tzinfo=datetime.UTC)
