"""The home page: the lab, its team, selected (else recent) papers and the latest news; on
a personal site (PERSONAL_SITE), its member's profile."""

import logging

from django.conf import settings
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from labsite.pages.people import ProfileView
from people.models import NewsItem, Person
from publications import listing
from publications.authors import merge_legends
from publications.models import Publication
from publications.profile import ProfilePapers

HOME_NEWS_COUNT = 5
HOME_PUBLICATION_COUNT = 6
logger = logging.getLogger(__name__)


class HomeView(TemplateView):
    """Lab name, tagline and About, the team, selected (else recent) papers, latest news."""

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
        context["team"] = Person.objects.published().current()
        context["news"] = NewsItem.objects.published().select_related("person")[:HOME_NEWS_COUNT]
        papers = Publication.objects.published().exclude(kind=Publication.Kind.PATENT)
        selected = listing.papers(papers.filter(is_selected=True)[:HOME_PUBLICATION_COUNT])
        context["publications_heading"] = (
            _("Selected publications") if selected else _("Recent publications")
        )
        shown = selected or listing.papers(papers[:HOME_PUBLICATION_COUNT])
        context["publications"] = listing.entries(shown)
        context["legend"] = merge_legends(context["publications"])
        return context
