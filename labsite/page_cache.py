"""Public pages served whole from the cache to anonymous visitors until the content changes.

Every save, delete or link change in the content apps moves the *content version*, a number
kept in the shared cache (imports, restores, reverts and settings edits are saves too, or
say so themselves). A page is stored under the version it was built at, so as soon as the
version moves every worker builds and serves a fresh page, and the old entries age out.
A stored page carries its gzip form and its ETag, made once when it is stored: a visitor
gets the compressed page, or "304 Not Modified" when they already have it.

A page is stored under the query its view reads (the view's `query_parameters`), so no
visitor can make a page be built and stored again by adding to its address: a request naming
any other parameter is sent, permanently, to the address without it.

Editors are never served from the cache (a session cookie bypasses it), nor is the admin,
the account pages, the health check, a page holding a CSRF token, or anything but a plain
200 answer that sets no cookie.

When the cache does not answer (its server is down or restarting), visitors are served
pages built afresh, and a change is refused (labsite.outages) rather than saved without
moving the version: once the cache answered again, it could serve pages from before it.
"""

import gzip
import hashlib
import logging
import re
import time
from urllib.parse import parse_qsl, urlencode

from django.conf import settings
from django.core.cache import cache
from django.core.handlers.wsgi import get_path_info
from django.db import transaction
from django.http import HttpResponse, HttpResponseNotModified, HttpResponsePermanentRedirect
from django.urls import Resolver404, resolve
from django.utils import translation

from core import content
from labsite.context_processors import STATIC_EXPORT_KEY
from labsite.outages import CacheUnavailable

VERSION_KEY = "labsite:content-version"
PAGE_TIMEOUT = 24 * 3600  # entries of past versions are never read again; they age out
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")
_COMPRESSIBLE = re.compile(r"^(text/|application/(json|xml|rss\+xml|atom\+xml|x-bibtex|vnd\.))")
# Not part of what a page says, or set again for each answer.
_LEFT_OUT = frozenset({"content-length", "set-cookie", "date", "etag", "content-encoding"})
_WARN_EVERY = 60  # seconds between warnings that the cache does not answer, per process
logger = logging.getLogger(__name__)


def content_version():
    """The current content version (one cache read). A cache that lost it starts a new one
    from the clock, so no page stored under an earlier number can be served again."""
    version = cache.get(VERSION_KEY)
    if version is None:
        cache.add(VERSION_KEY, time.time_ns(), None)
        version = cache.get(VERSION_KEY)
    return version


def _move_version():
    try:
        try:
            cache.incr(VERSION_KEY)
        except ValueError:  # not in the cache (evicted, or never read)
            cache.set(VERSION_KEY, time.time_ns(), None)
    except Exception as error:  # the cache server's own errors, whichever backend
        raise CacheUnavailable(f"The cache does not answer ({error!r}).") from error


def _move_version_after_commit():
    # The change is saved and the version moved once already, inside its transaction.
    try:
        _move_version()
    except CacheUnavailable:
        logger.exception("A saved change could not move the content version again")


def content_changed(sender=None, **kwargs):
    """Signal receiver (and a call for writes that send no signal, such as bulk inserts):
    the public pages are out of date. The version moves now, for this process and its
    transaction, and again once the transaction commits, so that no other worker keeps a
    page it built from the rows as they were before the commit."""
    if sender is not None and not content.is_content(sender):
        return
    _move_version()
    transaction.on_commit(_move_version_after_commit)


def schema_changed(**kwargs):
    """post_migrate receiver: an upgrade may change what every page says."""
    content_changed()


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
        query, foreign = canonical_query(request.META)
        if foreign:  # a parameter the page does not read: its own address, built once
            return HttpResponsePermanentRedirect(request.path + (f"?{query}" if query else ""))
        key, page = _stored_page(request.META)
        if page is not None:
            return _django_answer(request.META, page, "hit")
        response = self.get_response(request)
        # A page holding a CSRF token is the visitor's own: shared, it would hand their
        # token to the next visitor (a visitor who already has the cookie is sent none).
        if key is None or request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
            return response
        page = _storable(response)
        if page is None:
            return response
        try:
            cache.set(key, page, PAGE_TIMEOUT)
        except Exception:
            _cache_unavailable()
        return _django_answer(request.META, page, "miss")


class CachedPagesApp:
    """WSGI wrapper (labsite/wsgi.py) answering cache hits without Django's request cycle:
    the same eligibility, key and stored answer as the middleware, a third of the work.
    Anything else (a miss, an editor, the admin) goes to Django."""

    def __init__(self, application):
        self.application = application
        self.enabled = settings.PAGE_CACHE

    def __call__(self, environ, start_response):
        if self.enabled and may_serve_from_cache(environ) and not canonical_query(environ)[1]:
            page = _stored_page(environ)[1]
            if page is not None:
                status, headers, body = _answer(environ, page, "hit")
                start_response(status, headers)
                return [body]
        return self.application(environ, start_response)


def _stored_page(meta):
    """(the cache key of the page a request asks for, the page stored there or None), or
    (None, None) when the cache does not answer: the page is then built and not stored."""
    try:
        key = page_key(meta, content_version())
        return key, cache.get(key)
    except Exception:  # the cache server's own errors, whichever backend
        _cache_unavailable()
        return None, None


_warned_at = -float(_WARN_EVERY)


def _cache_unavailable():
    """Log (once a minute at most, not once a request) that the cache does not answer."""
    global _warned_at
    if time.monotonic() - _warned_at >= _WARN_EVERY:
        _warned_at = time.monotonic()
        logger.warning("The cache does not answer: pages are built afresh", exc_info=True)


def may_serve_from_cache(meta):
    """Whether a request (its WSGI environ) may be answered from the cache: a GET or HEAD
    for a public page, from a visitor without a session (editors are logged in)."""
    if meta.get("REQUEST_METHOD") not in ("GET", "HEAD") or STATIC_EXPORT_KEY in meta:
        return False
    path = meta.get("PATH_INFO", "")
    if path.startswith(_bypass_prefixes()):
        return False
    cookies = meta.get("HTTP_COOKIE", "")
    return not any(f"{name}=" in cookies for name in _bypass_cookies())


def _bypass_prefixes():
    prefixes = (settings.MEDIA_URL, settings.STATIC_URL, "/admin/", "/accounts/", "/health/")
    return tuple(p for p in prefixes if p)


def _bypass_cookies():
    # a false match ("xsessionid=") only means a page built afresh
    return (settings.SESSION_COOKIE_NAME, "messages")


def read_parameters(path):
    """The query parameters the view at `path` reads (its `query_parameters`, none unless it
    says), or None when no page is there. The path's language prefix is resolved in its
    language, as LocaleMiddleware (which runs after the cache) will."""
    language = translation.get_language_from_path(path) or settings.LANGUAGE_CODE
    try:
        with translation.override(language):
            match = resolve(path)
    except Resolver404:
        return None
    view = getattr(match.func, "view_class", match.func)
    return frozenset(getattr(view, "query_parameters", ()))


def canonical_query(meta):
    """(the query a request's page is stored under: the parameters its view reads, as
    given; whether the request names any other). A query on an address with no
    page is left as it is: nothing is stored there."""
    query = meta.get("QUERY_STRING", "")
    if not query:
        return "", False
    known = read_parameters(get_path_info(meta))
    if known is None:
        return query, False
    pairs = parse_qsl(query, keep_blank_values=True)
    # in the order given: a page's links (language alternates, pages) repeat its query
    kept = [(name, value) for name, value in pairs if name in known]
    return urlencode(kept), any(name not in known for name, _value in pairs)


def page_key(meta, version):
    """The cache key of the page a request asks for, read from its WSGI environ (scheme as
    Django tells it, host, path, and the query its view reads)."""
    header = settings.SECURE_PROXY_SSL_HEADER
    if header and header[0] in meta:
        scheme = "https" if meta[header[0]].split(",")[0].strip() == header[1] else "http"
    else:
        scheme = meta.get("wsgi.url_scheme", "http")
    host = meta.get("HTTP_HOST") or meta.get("SERVER_NAME", "")
    path = meta.get("SCRIPT_NAME", "") + meta.get("PATH_INFO", "")
    return f"labsite:page:{version}:{scheme}:{host}:{path}?{canonical_query(meta)[0]}"


def _storable(response):
    """What to keep of `response`, or None if it must not be shared between visitors: its
    body, gzip form and ETag, and the headers of each form, made once."""
    cache_control = response.get("Cache-Control", "")
    if (
        response.status_code != 200
        or response.streaming
        or response.cookies
        or "private" in cache_control
        or "no-store" in cache_control
    ):
        return None
    body = response.content
    compressed = None
    if _COMPRESSIBLE.match(response.get("Content-Type", "")) and len(body) > 200:
        compressed = gzip.compress(body, compresslevel=6, mtime=0)
        if len(compressed) >= len(body):
            compressed = None
    etag = f'W/"{hashlib.blake2b(body, digest_size=12).hexdigest()}"'
    headers = [(k, v) for k, v in response.items() if k.lower() not in _LEFT_OUT]
    if compressed is not None:
        vary = [v for k, v in headers if k.lower() == "vary"]
        headers = [(k, v) for k, v in headers if k.lower() != "vary"]
        headers.append(("Vary", ", ".join([*vary, "Accept-Encoding"])))
    headers.append(("ETag", etag))
    page = {"etag": etag, "body": body, "gzip": compressed}
    page["plain"] = [*headers, ("Content-Length", str(len(body)))]
    if compressed is not None:
        page["gzipped"] = [
            *headers,
            ("Content-Encoding", "gzip"),
            ("Content-Length", str(len(compressed))),
        ]
    return page


def _answer(meta, page, state):
    """(status, headers, body) of the answer to a request for a stored page."""
    if page["etag"] in (t.strip() for t in meta.get("HTTP_IF_NONE_MATCH", "").split(",")):
        return "304 Not Modified", [("ETag", page["etag"]), ("X-Page-Cache", state)], b""
    if page["gzip"] is not None and _ACCEPTS_GZIP.search(meta.get("HTTP_ACCEPT_ENCODING", "")):
        return "200 OK", [*page["gzipped"], ("X-Page-Cache", state)], page["gzip"]
    return "200 OK", [*page["plain"], ("X-Page-Cache", state)], page["body"]


def _django_answer(meta, page, state):
    status, headers, body = _answer(meta, page, state)
    response = HttpResponseNotModified() if status.startswith("304") else HttpResponse(body)
    for name, value in headers:
        response[name] = value
    return response
