"""Which requests the cache may answer, and the key a page is stored under: its canonical
address, the content version and the day."""

import functools
import time
from typing import NamedTuple
from urllib.parse import urlsplit

from django.conf import settings
from django.core.signals import setting_changed
from django.http.request import split_domain_port
from django.urls import Resolver404, resolve
from django.utils import timezone, translation

# The WSGI environ key `export_static` sets on its requests: the page as the static copy
# shows it (never stored). Not an HTTP header, so no visitor can send it.
STATIC_EXPORT_KEY = "labsite.static_export"


def may_serve_from_cache(meta):
    """Whether a request (its WSGI environ) may be answered from the cache: a GET or HEAD
    for a public page, from a visitor without a session (editors are logged in)."""
    if meta.get("REQUEST_METHOD") not in ("GET", "HEAD") or STATIC_EXPORT_KEY in meta:
        return False
    path = meta.get("PATH_INFO", "")
    hit = _hit_settings()
    if path.startswith(hit.bypass_prefixes):
        return False
    if meta.get("SCRIPT_NAME", "") != hit.script_name:
        # Where the site is mounted is the site's own address (SITE_URL), never a request
        # header's: gunicorn takes SCRIPT_NAME from one, and the home, answered under
        # /publications/, was stored there with links pointing nowhere.
        return False
    cookies = meta.get("HTTP_COOKIE", "")
    return not any(cookie in cookies for cookie in hit.bypass_cookies)


class _HitSettings(NamedTuple):
    bypass_prefixes: tuple[str, ...]
    bypass_cookies: tuple[str, ...]
    site_name: str | None
    site_port: int | None
    proxy_ssl_header: tuple[str, str] | None
    personal_site: str
    script_name: str


@functools.cache
def _hit_settings():
    """The settings a cache hit reads, read once (each read of `settings` costs a hit more
    than its whole version check did), and again after a setting changes (tests)."""
    prefixes = (settings.MEDIA_URL, settings.STATIC_URL, "/admin/", "/accounts/", "/health/")
    site = urlsplit(settings.SITE_URL)
    return _HitSettings(
        bypass_prefixes=tuple(p for p in prefixes if p),
        # a false match ("xsessionid=") only means a page built afresh
        bypass_cookies=(f"{settings.SESSION_COOKIE_NAME}=", "messages="),
        site_name=site.hostname,
        site_port=site.port,
        proxy_ssl_header=settings.SECURE_PROXY_SSL_HEADER,
        personal_site=settings.PERSONAL_SITE,
        script_name=site.path.rstrip("/"),
    )


setting_changed.connect(lambda **kwargs: _hit_settings.cache_clear(), weak=False)


def canonical_query(request):
    """The query a request's page is stored under: what its view's `canonical_query` makes
    of the request's (none when the view declares none), or None when no page is at the
    address (nothing is stored there). The path's language prefix is resolved in its
    language, as LocaleMiddleware (which runs after the cache) will."""
    path = request.path_info
    language = translation.get_language_from_path(path) or settings.LANGUAGE_CODE
    try:
        with translation.override(language):
            match = resolve(path)
            view = getattr(match.func, "view_class", match.func)
            canonical = getattr(view, "canonical_query", None)
            return canonical(request.GET) if canonical else ""
    except Resolver404:
        return None


def canonical_host(meta):
    """The host a request's page is built and stored for: the name it was asked by (which
    Django checks against ALLOWED_HOSTS before anything is stored), with the port
    SITE_URL gives that name, else none: never a port the visitor chose."""
    hit = _hit_settings()
    return _canonical_host(meta.get("HTTP_HOST") or meta.get("SERVER_NAME", ""), hit)


@functools.lru_cache(maxsize=256)  # a visitor's own spellings take no more than that
def _canonical_host(host, hit):
    domain, _port = split_domain_port(host)  # the name lower-cased, as Django compares it
    if not domain:
        return host  # refused by Django: nothing is stored under it
    if hit.site_port and hit.site_name == domain.strip("[]"):
        return f"{domain}:{hit.site_port}"
    return domain


def page_key(meta, version):
    """The cache key of the page a request asks for, read from its WSGI environ (scheme as
    Django tells it, canonical host, path and query)."""
    hit = _hit_settings()
    header = hit.proxy_ssl_header
    if header and header[0] in meta:
        scheme = "https" if meta[header[0]].split(",")[0].strip() == header[1] else "http"
    else:
        scheme = meta.get("wsgi.url_scheme", "http")
    host = canonical_host(meta)
    path = meta.get("PATH_INFO", "")  # as resolved; the mount point is SITE_URL's, checked
    query = meta.get("QUERY_STRING", "")  # only a canonical query is ever stored
    site = hit.personal_site  # the same address is another page on a personal site
    # Pages change with the day as well as with content: an opening leaves the list after
    # its deadline, a post dated ahead appears on its day.
    day = _local_day()
    return f"labsite:page:{version}:{day}:{site}:{scheme}:{host}:{path}?{query}"


_today = (0, "")  # (the clock's second it was worked out in, the local date)


def _local_day():
    """Today's local date as text, worked out once a second rather than on every hit."""
    global _today
    second = int(time.time())
    if _today[0] != second:
        _today = (second, timezone.localdate().isoformat())
    return _today[1]
