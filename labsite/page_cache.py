"""Public pages served whole from the cache to anonymous visitors until the content changes.

Every save, delete or link change in the content apps moves the *content version*, a number
kept in the shared cache (imports, restores, reverts and settings edits are saves too, or
say so themselves). A page is stored under the version it was built at, so as soon as the
version moves every worker builds and serves a fresh page, and the old entries age out.
A stored page carries its gzip form and its ETag, made once when it is stored: a visitor
gets the compressed page, or "304 Not Modified" when they already have it.

Editors are never served from the cache (a session cookie bypasses it), nor is the admin,
the health check, or anything but a plain 200 answer that sets no cookie.
"""

import gzip
import hashlib
import re
import time

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers

from labsite.context_processors import STATIC_EXPORT_KEY

VERSION_KEY = "labsite:content-version"
CONTENT_APPS = frozenset({"people", "publications", "talks"})
PAGE_TIMEOUT = 24 * 3600  # entries of past versions are never read again; they age out
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")
_COMPRESSIBLE = re.compile(r"^(text/|application/(json|xml|rss\+xml|atom\+xml|x-bibtex|vnd\.))")
# Not part of what a page says, or set again for each answer.
_LEFT_OUT = frozenset({"content-length", "set-cookie", "date", "etag", "content-encoding"})


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
        cache.incr(VERSION_KEY)
    except ValueError:  # not in the cache (evicted, or never read)
        cache.set(VERSION_KEY, time.time_ns(), None)


def content_changed(sender=None, **kwargs):
    """Signal receiver (and a call for writes that send no signal, such as bulk inserts):
    the public pages are out of date. The version moves now, for this process and its
    transaction, and again once the transaction commits, so that no other worker keeps a
    page it built from the rows as they were before the commit."""
    if sender is not None and not _is_content(sender):
        return
    _move_version()
    transaction.on_commit(_move_version)


def schema_changed(**kwargs):
    """post_migrate receiver: an upgrade may change what every page says."""
    content_changed()


def _is_content(model):
    meta = model._meta
    return (
        meta.app_label in CONTENT_APPS
        and not hasattr(model, "instance_type")  # django-simple-history's history rows
        and model.__name__ != "ImportBatch"  # an import's progress, shown only in the admin
    )


class PublicPageCacheMiddleware:
    """Serves public GET requests from the cache (see the module's docstring). First in
    MIDDLEWARE: a cached answer needs nothing else, and a stored answer carries the headers
    every other middleware set on it (security, CSP), which do not vary between visitors."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.enabled = settings.PAGE_CACHE
        self.bypass_prefixes = tuple(
            p for p in (settings.MEDIA_URL, settings.STATIC_URL, "/admin/", "/health/") if p
        )
        self.bypass_cookies = (settings.SESSION_COOKIE_NAME, "messages")

    def __call__(self, request):
        if not self._may_serve_from_cache(request):
            return self.get_response(request)
        key = ":".join(
            ("labsite:page", str(content_version()), request.scheme, request.get_host(),
             request.get_full_path())
        )  # fmt: skip
        page = cache.get(key)
        if page is not None:
            return _answer(request, page, "hit")
        response = self.get_response(request)
        page = _storable(response)
        if page is None:
            return response
        cache.set(key, page, PAGE_TIMEOUT)
        return _answer(request, page, "miss")

    def _may_serve_from_cache(self, request):
        return (
            self.enabled
            and request.method in ("GET", "HEAD")
            and not request.path_info.startswith(self.bypass_prefixes)
            and not any(name in request.COOKIES for name in self.bypass_cookies)
            and STATIC_EXPORT_KEY not in request.META
        )


def _storable(response):
    """What to keep of `response`, or None if it must not be shared between visitors."""
    if (
        response.status_code != 200
        or response.streaming
        or response.cookies
        or "private" in response.get("Cache-Control", "")
        or "no-store" in response.get("Cache-Control", "")
    ):
        return None
    body = response.content
    compressed = None
    if _COMPRESSIBLE.match(response.get("Content-Type", "")) and len(body) > 200:
        compressed = gzip.compress(body, compresslevel=6, mtime=0)
        if len(compressed) >= len(body):
            compressed = None
    return {
        "headers": [(k, v) for k, v in response.items() if k.lower() not in _LEFT_OUT],
        "body": body,
        "gzip": compressed,
        "etag": f'W/"{hashlib.blake2b(body, digest_size=12).hexdigest()}"',
    }


def _answer(request, page, state):
    etag = page["etag"]
    if etag in (t.strip() for t in request.META.get("HTTP_IF_NONE_MATCH", "").split(",")):
        response = HttpResponseNotModified()
    else:
        gzipped = page["gzip"] is not None and _ACCEPTS_GZIP.search(
            request.META.get("HTTP_ACCEPT_ENCODING", "")
        )
        body = page["gzip"] if gzipped else page["body"]
        response = HttpResponse(body)
        for name, value in page["headers"]:
            response[name] = value
        if gzipped:
            response["Content-Encoding"] = "gzip"
        response["Content-Length"] = str(len(body))
    if page["gzip"] is not None:
        patch_vary_headers(response, ["Accept-Encoding"])
    response["ETag"] = etag
    response["X-Page-Cache"] = state
    return response
