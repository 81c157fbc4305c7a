"""Site-wide pages: the home page, lab news, robots.txt, and the health check."""

import datetime
import uuid

from django.contrib.syndication.views import Feed
from django.core.cache import cache
from django.db import connection
from django.http import HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.html import strip_tags
from django.utils.text import Truncator
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from django.views.generic import ListView, TemplateView

from core.markup import render_inline_markdown
from people.models import LabSettings, NewsItem, Person
from publications.authors import LIST, author_list, merge_legends
from publications.models import Publication

HOME_NEWS_COUNT = 5
HOME_PUBLICATION_COUNT = 6


class HomeView(TemplateView):
    """Lab name, tagline and About, the team, selected (else recent) papers, latest news."""

    template_name = "labsite/home.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["team"] = Person.objects.published().current()
        context["news"] = NewsItem.objects.published().select_related("person")[:HOME_NEWS_COUNT]
        papers = Publication.objects.public().exclude(kind=Publication.Kind.PATENT).for_listing()
        selected = list(papers.filter(is_selected=True)[:HOME_PUBLICATION_COUNT])
        context["publications_heading"] = (
            "Selected publications" if selected else "Recent publications"
        )
        shown = selected or papers[:HOME_PUBLICATION_COUNT]
        context["publications"] = [(p, author_list(p, LIST)) for p in shown]
        context["legend"] = merge_legends(authors for _, authors in context["publications"])
        return context


class NewsView(ListView):
    """All published news, lab-wide and about members, newest first."""

    template_name = "labsite/news.html"
    context_object_name = "news"
    paginate_by = 30

    def get_queryset(self):
        return NewsItem.objects.published().select_related("person")


class NewsFeed(Feed):
    """Lab and member news for feed readers, newest first."""

    def title(self):
        return f"{LabSettings.load().name}: news"

    def link(self):
        return reverse("news")

    def items(self):
        return NewsItem.objects.published().select_related("person")[:30]

    def item_title(self, item):
        """The news itself, as plain text ("Teng Ma: Paper accepted at OSDI 2026")."""
        who = f"{item.person.name}: " if item.person else ""
        return who + Truncator(strip_tags(render_inline_markdown(item.text))).words(16)

    def item_description(self, item):
        return render_inline_markdown(item.text)

    def item_link(self, item):
        return f"{reverse('news')}#news-{item.pk}"

    def item_pubdate(self, item):
        """The first day the news's own date covers ("Oct 2025": 1 October), at midnight."""
        day = item.date.first_day()
        return datetime.datetime.combine(day, datetime.time(), tzinfo=datetime.UTC)

    def item_guid(self, item):
        return f"{reverse('news')}#news-{item.pk}"

    item_guid_is_permalink = False


@require_GET
def robots_txt(request):
    lines = [
        "User-agent: *",
        f"Disallow: {reverse('admin:index')}",
        f"Sitemap: {request.build_absolute_uri(reverse('sitemap'))}",
    ]
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain")


@require_GET
@never_cache
def health(request):
    """For load balancers and monitors: 200 when the database and the cache answer, else
    503, with what failed. It reads nothing a visitor could not see."""
    checks = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        checks["database"] = "ok"
    except Exception as error:  # any failure is the answer, not a 500
        checks["database"] = f"error: {type(error).__name__}"
    try:
        key = f"labsite:health:{uuid.uuid4().hex}"
        cache.set(key, "ok", 10)
        checks["cache"] = "ok" if cache.get(key) == "ok" else "error: value not kept"
        cache.delete(key)
    except Exception as error:
        checks["cache"] = f"error: {type(error).__name__}"
    healthy = all(value == "ok" for value in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "error", **checks}, status=200 if healthy else 503
    )
