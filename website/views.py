"""The lab's own pages, each at its address."""

from django.views.generic import DetailView

from website.models import Page


class PageView(DetailView):
    """A published page: its title and body in the page's language (else the other), and
    the published pages under it."""

    template_name = "website/page.html"
    context_object_name = "page"
    slug_field = slug_url_kwarg = "address"
    query_parameters = ()  # what the page cache keys on

    def get_queryset(self):
        return Page.objects.published().select_related("parent")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        page = self.object
        context["subpages"] = page.children.published()
        context["parent"] = page.parent if page.parent_id and page.parent.is_published else None
        return context
