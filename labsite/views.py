"""Site-wide answers that are not pages of content: the icon, robots.txt and the health check."""

import uuid

from django.core.cache import cache, caches
from django.core.cache.backends.dummy import DummyCache
from django.db import connection
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.html import escape
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from core.names import initials
from lab.models import LabSettings


@require_GET
def favicon(request):
    """The site's icon: the lab's logo when it has one, else its initials on its colour
    (an SVG, so it is sharp at every size). /favicon.ico leads here for old browsers."""
    lab = LabSettings.load()
    if lab.logo:
        return redirect(lab.logo.url)
    letters = "".join([c for c in initials(lab.name) if c.isalnum()][:2])
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
        '<rect width="64" height="64" rx="12" fill="#1f5fa8"/>'
        '<text x="32" y="42" font-family="system-ui, sans-serif" font-size="28" '
        f'font-weight="700" fill="#fff" text-anchor="middle">{escape(letters or "L")}</text>'
        "</svg>"
    )
    return HttpResponse(svg, content_type="image/svg+xml")


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
    """For load balancers and monitors: 200 while the site can serve its pages, else 503,
    with what failed. The database is needed; the cache is not (pages are then built
    afresh and changes refused until it answers: labsite/page_cache.py), so a cache that
    does not answer is "degraded", still 200: the workers share it, and a balancer taking
    them all out of service would take the site down. A site configured without a cache
    (`CACHE_URL=dummycache://`) has none to check. It reads nothing a visitor could not see."""
    checks = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        checks["database"] = "ok"
    except Exception as error:  # any failure is the answer, not a 500
        checks["database"] = f"error: {type(error).__name__}"
    checks["cache"] = "off" if isinstance(caches["default"], DummyCache) else _cache_check()
    if checks["database"] != "ok":
        status = "error"
    else:
        status = "ok" if checks["cache"] in ("ok", "off") else "degraded"
    return JsonResponse({"status": status, **checks}, status=503 if status == "error" else 200)


def _cache_check():
    """Says "ok" when the cache keeps a value, else what went wrong."""
    key = f"labsite:health:{uuid.uuid4().hex}"
    try:
        cache.set(key, "ok", 10)
        kept = cache.get(key) == "ok"
        cache.delete(key)
    except Exception as error:  # any failure is the answer, not a 500
        return f"error: {type(error).__name__}"
    return "ok" if kept else "error: value not kept"
