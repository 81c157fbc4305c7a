"""A page as it is stored (its body, gzip form, ETag and headers, made once), the pages a
process keeps beside the cache, and the answer made of a stored page."""

import collections
import gzip
import hashlib
import logging
import re
import threading
import time

from django.http import HttpResponse, HttpResponseNotModified

# Bytes of pages each process keeps beside the cache (RecentPages): the team, home and list
# pages gzip to 3-60 KB, so the pages visitors ask most fit many times over.
RECENT_PAGES_BYTES = 16 * 1024 * 1024


_ACCEPTS_GZIP = re.compile(r"\bgzip\b")
_COMPRESSIBLE = re.compile(r"^(text/|application/(json|xml|rss\+xml|atom\+xml|x-bibtex|vnd\.))")
# Not part of what a page says, or set again for each answer.
_LEFT_OUT = frozenset({"content-length", "set-cookie", "date", "etag", "content-encoding"})
_WARN_EVERY = 60  # seconds between warnings that the cache does not answer, per process


logger = logging.getLogger(__name__)


class RecentPages:
    """The pages this process served last, by cache key, up to `max_bytes`: a hit on one of
    them asks the cache nothing (no round trip to Redis, no unpickling of the page). A key
    names the content version and the day, read for each request as before, so a page kept
    here is the very page the cache holds under that key, never one built before a save."""

    def __init__(self, max_bytes):
        self.max_bytes = max_bytes
        self._pages = collections.OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key):
        with self._lock:
            page = self._pages.get(key)
            if page is not None:
                self._pages.move_to_end(key)
            return page

    def put(self, key, page):
        size = _size(page)
        if size > self.max_bytes // 4:
            return
        with self._lock:
            if key in self._pages:
                return
            self._pages[key] = page
            self._bytes += size
            while self._bytes > self.max_bytes:
                self._bytes -= _size(self._pages.popitem(last=False)[1])

    def clear(self):
        with self._lock:
            self._pages.clear()
            self._bytes = 0


def _size(page):
    return len(page["body"]) + len(page["gzip"] or b"")


recent_pages = RecentPages(RECENT_PAGES_BYTES)


_warned_at = -float(_WARN_EVERY)


def cache_unavailable():
    """Log (once a minute at most, not once a request) that the cache does not answer."""
    global _warned_at
    if time.monotonic() - _warned_at >= _WARN_EVERY:
        _warned_at = time.monotonic()
        logger.warning("The cache does not answer: pages are built afresh", exc_info=True)


def storable(response):
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


def answer(meta, page, state):
    """(status, headers, body) of the answer to a request for a stored page."""
    if page["etag"] in (t.strip() for t in meta.get("HTTP_IF_NONE_MATCH", "").split(",")):
        return "304 Not Modified", [("ETag", page["etag"]), ("X-Page-Cache", state)], b""
    if page["gzip"] is not None and _ACCEPTS_GZIP.search(meta.get("HTTP_ACCEPT_ENCODING", "")):
        return "200 OK", [*page["gzipped"], ("X-Page-Cache", state)], page["gzip"]
    return "200 OK", [*page["plain"], ("X-Page-Cache", state)], page["body"]


def django_answer(meta, page, state):
    status, headers, body = answer(meta, page, state)
    response = HttpResponseNotModified() if status.startswith("304") else HttpResponse(body)
    for name, value in headers:
        response[name] = value
    return response
