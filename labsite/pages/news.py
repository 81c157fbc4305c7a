"""Lab and member news: the page and its feed."""

import datetime

from django.contrib.syndication.views import Feed
from django.urls import reverse
from django.utils.html import strip_tags
from django.utils.text import Truncator
from django.utils.translation import gettext as _
from django.views.generic import ListView

from core import queries
from core.feeds import PartialDateFeed
from core.markup import render_inline_markdown
from lab.models import LabSettings
from people.models import NewsItem


class NewsView(ListView):
    """All published news, lab-wide and about members, newest first."""

    template_name = "labsite/news.html"
    context_object_name = "news"
    paginate_by = 30

    @staticmethod
    def canonical_query(params):  # what the page cache keys on
        return queries.encode(queries.paginated([], params))

    def get_queryset(self):
        return NewsItem.objects.published().select_related("person")


class NewsFeed(Feed):
    """Lab and member news for feed readers, newest first, each dated at its precision
    (`dc:date`) as well as by pubDate."""

    feed_type = PartialDateFeed

    def item_extra_kwargs(self, item):
        return {"partial_date": item.date}

    def title(self):
        return _("%(lab)s: news") % {"lab": LabSettings.load().name}

    def link(self):
        return reverse("news")

    def description(self):  # RSS 2.0 requires one
        return _("News from %(lab)s.") % {"lab": LabSettings.load().name}

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
