"""Where a request meets the cache: Django's middleware, which stores what it builds, and
the WSGI wrapper that answers a hit before Django starts."""

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponsePermanentRedirect

from labsite.outages import outage_response
from labsite.page_cache.keys import canonical_host, canonical_query, may_serve_from_cache, page_key
from labsite.page_cache.stored import (
    answer,
    cache_unavailable,
    django_answer,
    recent_pages,
    storable,
)
from labsite.page_cache.version import database_down, serving_version

PAGE_TIMEOUT = 24 * 3600  # entries of past versions are never read again; they age out


class PublicPageCacheMiddleware:
    """Stores public pages and serves them from the cache (see the module's docstring).
    First in MIDDLEWARE: a cached answer needs nothing else, and a stored answer carries
    the headers every other middleware set on it (security, CSP), which do not vary
    between visitors. In production `CachedPagesApp` answers hits before Django starts."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.enabled = settings.PAGE_CACHE

    def __call__(self, request):
        if not (self.enabled and may_serve_from_cache(request.META)):
            return self.get_response(request)
        request.get_host()  # a host the site does not serve is refused (400), never stored
        request.META["HTTP_HOST"] = canonical_host(request.META)
        # Only canonical queries are ever stored: a hit needs no more checking.
        key, page = _stored_page(request.META)
        if page is not None:
            return django_answer(request.META, page, "hit")
        if database_down():  # building the page would wait for it again
            return outage_response("database")
        query = canonical_query(request)
        if query is not None and query != request.META.get("QUERY_STRING", ""):
            # another spelling, value or parameter: the page's own address, built once
            return HttpResponsePermanentRedirect(request.path + (f"?{query}" if query else ""))
        response = self.get_response(request)
        # A page holding a CSRF token is the visitor's own: shared, it would hand their
        # token to the next visitor (a visitor who already has the cookie is sent none).
        if key is None or request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
            return response
        page = storable(response)
        if page is None:
            return response
        try:
            cache.set(key, page, PAGE_TIMEOUT)
        except Exception:
            cache_unavailable()
        else:
            recent_pages.put(key, page)
        return django_answer(request.META, page, "miss")


class CachedPagesApp:
    """WSGI wrapper (labsite/wsgi.py) answering cache hits without Django's request cycle:
    the same eligibility, key and stored answer as the middleware, a third of the work.
    Anything else (a miss, an editor, the admin) goes to Django."""

    def __init__(self, application):
        self.application = application
        self.enabled = settings.PAGE_CACHE

    def __call__(self, environ, start_response):
        if self.enabled and may_serve_from_cache(environ):
            page = _stored_page(environ)[1]
            if page is not None:
                status, headers, body = answer(environ, page, "hit")
                start_response(status, headers)
                return [body]
        return self.application(environ, start_response)


def _stored_page(meta):
    """(the cache key of the page a request asks for, the page stored there or None), or
    (None, None) when the cache does not answer: the page is then built and not stored."""
    version = serving_version()
    if version is None:
        return None, None
    key = page_key(meta, version)
    page = recent_pages.get(key)
    if page is not None:
        return key, page
    try:
        page = cache.get(key)
    except Exception:  # the cache server's own errors, whichever backend
        cache_unavailable()
        return None, None
    if page is not None:
        recent_pages.put(key, page)
    return key, page
