"""The site's search page (labsite/search.py finds; this shows)."""

from django.urls import get_script_prefix
from django.views.generic import TemplateView

from core import queries, search_text
from labsite import search, static_site


def _query(params):
    """The query as the search reads it: spaces collapsed, at most MAX_QUERY characters."""
    return " ".join(params.get("q", "")[: search_text.MAX_QUERY].split())


class SearchView(TemplateView):
    """Every public section searched at once, ranked; no script needed. Results are never
    kept in the page cache: a visitor's query decides what is asked, not what is stored."""

    template_name = "labsite/search.html"

    @staticmethod
    def canonical_query(params):
        return queries.encode(queries.paginated([("q", _query(params))], params))

    def get_context_data(self, **kwargs):
        page = int(queries.page_number(self.request.GET.get("page", "")) or 1)
        q = _query(self.request.GET)
        return super().get_context_data(
            q=q,
            found=search.find(q, page) if q else None,
            # the static copy's index (export_static), under the copy's own address
            pagefind_url=get_script_prefix() + static_site.PAGEFIND_DIR + "/",
            **kwargs,
        )

    def render_to_response(self, context, **kwargs):
        response = super().render_to_response(context, **kwargs)
        response["Cache-Control"] = "private"
        if context["q"]:
            response["X-Robots-Tag"] = "noindex"
        return response
