from django.conf import settings
from django.utils.functional import SimpleLazyObject

from lab.models import LabSettings
from labsite.i18n import alternates
from website import menu

# The WSGI environ key `export_static` sets on its requests: the page as the static copy
# shows it. Not an HTTP header, so no visitor can send it.
STATIC_EXPORT_KEY = "labsite.static_export"


def lab(request):
    """The lab settings, for the header, footer and page titles of every page; the part of
    the site the page is in (`site_section`, for the menu: a URL namespace or name, empty
    on an error page, which no URL matched); and whether the page is rendered for the
    static copy (`static_export`); the page in each language (`alternates`); and, on a
    personal site, its member's slug (`personal_site`); and the site's menu (`site_menu`,
    read only on a page that shows it)."""
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
    }
