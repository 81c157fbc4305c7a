from django.conf import settings
from django.http import QueryDict
from django.utils.functional import SimpleLazyObject

from lab.models import LabSettings
from labsite import page_cache
from labsite.i18n import alternates
from labsite.page_cache import STATIC_EXPORT_KEY
from website import menu


def lab(request):
    """The lab settings, for the header, footer and page titles of every page; the part of
    the site the page is in (`site_section`, for the menu: a URL namespace or name, empty
    on an error page, which no URL matched); and whether the page is rendered for the
    static copy (`static_export`); the page in each language (`alternates`); and, on a
    personal site, its member's slug (`personal_site`); the site's menu (`site_menu`,
    read only on a page that shows it); and what search engines are told of the page's
    address (`page_address`, see `_page_address`)."""
    match = request.resolver_match
    return {
        "lab": LabSettings.load(),
        "site_section": (match.namespace or match.url_name or "") if match else "",
        "site_page": (match.url_name or "") if match else "",
        "static_export": STATIC_EXPORT_KEY in request.META,
        "personal_site": settings.PERSONAL_SITE,
        # Worked out once, and only on a page that shows it (not in the admin or a feed).
        "alternates": SimpleLazyObject(lambda: alternates(request)),
        "site_menu": SimpleLazyObject(lambda: menu.entries(match, settings.PERSONAL_SITE)),
        "page_address": SimpleLazyObject(lambda: _page_address(request)),
    }


def _page_address(request):
    """{"url": the page's canonical address} for search engines: its path with the one
    spelling of its query the page cache keeps (a list's page number beyond the first);
    {"noindex": True} for a list filtered or searched (`?kind=`, `?q=`, …), which is no page
    of its own to index, though its links are followed; {} where no view answers."""
    if request.resolver_match is None:
        return {}
    query = page_cache.canonical_query(request)
    if query is None:
        return {}
    params = QueryDict(query)
    if any(name != "page" for name in params):
        return {"noindex": True}
    page = params.get("page", "1")
    return {
        "url": request.build_absolute_uri(request.path + (f"?page={page}" if page != "1" else ""))
    }
