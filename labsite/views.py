"""Site-wide pages: the home page, lab news, robots.txt."""

from django.http import HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_GET
from django.views.generic import ListView, TemplateView

from people.models import NewsItem, Person

HOME_NEWS_COUNT = 5


class HomeView(TemplateView):
    """Lab name, tagline and About, the team at a glance, and the latest news."""

    template_name = "labsite/home.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["team"] = Person.objects.published().current()
        context["news"] = NewsItem.objects.published().select_related("person")[:HOME_NEWS_COUNT]
        return context


class NewsView(ListView):
    """All published news, lab-wide and about members, newest first."""

    template_name = "labsite/news.html"
    context_object_name = "news"
    paginate_by = 30

    def get_queryset(self):
        return NewsItem.objects.published().select_related("person")


@require_GET
def robots_txt(request):
    lines = [
        "User-agent: *",
        f"Disallow: {reverse('admin:index')}",
        f"Sitemap: {request.build_absolute_uri(reverse('sitemap'))}",
    ]
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain")
