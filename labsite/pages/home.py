"""The home page: the lab's name and tagline, then the sections the lab admin composed
(website.HomeSection: banner, about, research themes, news, publications, team, openings,
posts, contact) in their order, else the default composition (about, team, selected or
recent papers, news); on a personal site (PERSONAL_SITE), its member's profile."""

import logging

from django.conf import settings
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from core.templatetags.labsite import fallback_lang
from lab import sections
from lab.models import LabSettings
from labsite.pages.people import ProfileView, join_us
from people.models import NewsItem, Person
from publications import listing
from publications.authors import merge_legends
from publications.models import Publication
from publications.profile import ProfilePapers
from website.models import HomeSection, Post, Theme

Kind = HomeSection.Kind
logger = logging.getLogger(__name__)


class HomeView(TemplateView):
    """Lab name and tagline, then the home's sections in the lab admin's order."""

    template_name = "labsite/home.html"

    @staticmethod
    def canonical_query(params):  # what the page cache keys on
        return ProfilePapers.canonical_query(params) if settings.PERSONAL_SITE else ""

    def dispatch(self, request, *args, **kwargs):
        slug = settings.PERSONAL_SITE
        if slug:
            if Person.objects.published().filter(slug=slug).exists():
                return ProfileView.as_view()(request, slug=slug)
            logger.warning("PERSONAL_SITE names no published member (%s): the lab's home", slug)
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["sections"] = home_sections(LabSettings.load())
        return context


def home_sections(lab):
    """Each shown section that has something to show, in order, as the context its partial
    (templates/labsite/home/_<kind>.html) reads: one query for the sections, then at most
    four a section (publications), whatever the number of items."""
    rows = {row.kind: row for row in HomeSection.objects.all()}
    for kind in Kind:
        if kind not in rows and kind.shown_by_default:
            rows[kind] = HomeSection(kind=kind, position=kind.default_position)
    shown = sorted(
        (row for row in rows.values() if row.is_shown),
        key=lambda row: (row.position, Kind(row.kind).default_position),
    )
    sections = []
    for row in shown:
        section = _builder(row.kind)(row, lab)
        if section is None:  # nothing to show: no heading over an empty list
            continue
        heading = row.heading or section.pop("heading", "")
        section.update(
            kind=row.kind,
            row=row,
            template=f"labsite/home/_{row.kind}.html",
            heading=heading,
            heading_lang=fallback_lang(row, "heading") if row.heading else "",
        )
        sections.append(section)
    return sections


def _banner(row, lab):
    return {}


def _about(row, lab):
    return {"heading": _("About")} if lab.about else None


def _themes(row, lab):
    themes = list(Theme.objects.published().select_related("featured_image")[: row.shown_count])
    return {"heading": _("Research"), "themes": themes} if themes else None


def _news(row, lab):
    news = list(NewsItem.objects.published().select_related("person")[: row.shown_count])
    return {"heading": _("News"), "news": news} if news else None


def _publications(row, lab):
    papers = Publication.objects.published().exclude(kind=Publication.Kind.PATENT)
    selected = listing.papers(papers.filter(is_selected=True)[: row.shown_count])
    shown = selected or listing.papers(papers[: row.shown_count])
    if not shown:
        return None
    entries = listing.entries(shown)
    return {
        "heading": _("Selected publications") if selected else _("Recent publications"),
        "publications": entries,
        "legend": merge_legends(entries),
    }


def _team(row, lab):
    """The current members in the lab's role order (as the team page groups them), each
    role in its own order."""
    rank = {role: number for number, role in enumerate(lab.role_order())}
    team = sorted(Person.objects.published().current(), key=lambda p: rank[p.role])
    return {"heading": _("Team"), "team": team} if team else None


def _openings(row, lab):
    return join_us(row.shown_count)


def _posts(row, lab):
    posts = list(Post.objects.published().for_listing()[: row.shown_count])
    return {"heading": _("Posts"), "posts": posts} if posts else None


def _contact(row, lab):
    if not (lab.address or lab.contact_email or row.map_url):
        return None
    return {"heading": _("Contact")}


_BUILDERS = {
    Kind.BANNER: _banner,
    Kind.ABOUT: _about,
    Kind.THEMES: _themes,
    Kind.NEWS: _news,
    Kind.PUBLICATIONS: _publications,
    Kind.TEAM: _team,
    Kind.OPENINGS: _openings,
    Kind.POSTS: _posts,
    Kind.CONTACT: _contact,
}


def _builder(kind):
    """The function that builds a kind's context: the home's own, or the one its section
    names in the registry (lab/sections.py)."""
    if kind in _BUILDERS:
        return _BUILDERS[kind]
    return import_string(next(b.builder for b in sections.home_blocks() if b.kind == kind))
