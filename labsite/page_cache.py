"""Public pages served whole from the cache to anonymous visitors until the content changes.

Every save, delete or link change in the content apps moves the *content version*, a number
kept in the database beside the content, inside the change's own transaction (imports,
restores, reverts and settings edits are saves too, or say so themselves). The version is
where it started (labsite.models.ContentVersion) plus the highest id of the change log
(labsite.models.ContentChange), to which a transaction that changes content adds a row, and
adds one more once it has committed: rows are only added, so no change waits for another to
commit (a twenty-second import holds up no admin's save), and a long transaction's row,
which others see only when it commits, is followed by one they see at once.

A page is stored under the version it was built at, and a request reads the version first
(one query, on the driver's own cursor for a cache hit; on PostgreSQL a worker told of no
change since its last read asks nothing, labsite/version_push.py), so from the moment a
change commits every worker builds and serves a fresh page, and the old entries age out. A
stored page carries its gzip form and its ETag, made once when it is stored: a visitor gets
the compressed page, or "304 Not Modified" when they already have it.

A page is stored under its canonical address: the query its view declares it reads
(`canonical_query`, see core.queries) and the site's host without the visitor's port, so
no visitor can make a page be built and stored again by adding to its address, varying a
value or the port: any other query is sent, permanently, to the canonical one, and the page
is built for the canonical host (its absolute links name no port a visitor chose).

A page is keyed on the path the application resolved (PATH_INFO), never on what a request
header can move: a request whose SCRIPT_NAME is not where SITE_URL mounts the site is built
afresh and not stored.

Editors are never served from the cache (a session cookie bypasses it), nor is the admin,
the account pages, the health check, a page holding a CSRF token, or anything but a plain
200 answer that sets no cookie.

No save depends on the cache: while it does not answer, visitors are served pages built
afresh, and changes are saved as ever; the version they move is in the database, so once the
cache answers again nothing stored before them is served. While the database does not
answer, pages stored under the version last read are still served (nothing can change
meanwhile), and every other request gets the outage page (labsite.outages).
"""

import collections
import functools
import gzip
import hashlib
import logging
import re
import threading
import time
from typing import NamedTuple
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache
from django.core.signals import setting_changed
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections
from django.http import HttpResponse, HttpResponseNotModified, HttpResponsePermanentRedirect
from django.http.request import split_domain_port
from django.urls import Resolver404, resolve
from django.utils import timezone, translation
from django_tasks import task

from core import after_commit, changes
from labsite import db_deadline, version_push
from labsite.models import ContentChange, ContentVersion
from labsite.outages import outage_response

# The WSGI environ key `export_static` sets on its requests: the page as the static copy
# shows it (never stored). Not an HTTP header, so no visitor can send it.
STATIC_EXPORT_KEY = "labsite.static_export"
PAGE_TIMEOUT = 24 * 3600  # entries of past versions are never read again; they age out
# The version this site read last, kept in the cache for a worker started while the
# database does not answer.
LAST_VERSION_KEY = "labsite:last-content-version"
_PRUNE_EVERY = 1000  # change-log rows added between two prunings of the log
# Bytes of pages each process keeps beside the cache (RecentPages): the team, home and list
# pages gzip to 3-60 KB, so the pages visitors ask most fit many times over.
RECENT_PAGES_BYTES = 16 * 1024 * 1024
DATABASE_RETRY = 5  # seconds a worker serves the version it read last before asking again
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")
_COMPRESSIBLE = re.compile(r"^(text/|application/(json|xml|rss\+xml|atom\+xml|x-bibtex|vnd\.))")
# Not part of what a page says, or set again for each answer.
_LEFT_OUT = frozenset({"content-length", "set-cookie", "date", "etag", "content-encoding"})
_WARN_EVERY = 60  # seconds between warnings that the cache does not answer, per process
logger = logging.getLogger(__name__)


def content_version():
    """The current content version, as this request's transaction sees it: one read of its
    row (and a first write when the table is new or was emptied, from the clock, so that no
    number stored before can come back)."""
    with connection.cursor() as cursor:
        cursor.execute(_read_version_sql())
        row = cursor.fetchone()
        if row is None:
            _start_version(DEFAULT_DB_ALIAS)
            cursor.execute(_read_version_sql())
            row = cursor.fetchone()
    _forget_move(connection)
    return row[0]


def _committed_version():
    """content_version() as a cache hit reads it, outside any transaction: the same one
    statement on the driver's own cursor, past Django's cursor layers (they took half the
    read's time), under the same deadline (labsite.db_deadline), failing as a
    DatabaseError. Inside a transaction, content_version() itself: it forgets the move."""
    wrapper = connections[DEFAULT_DB_ALIAS]  # once: each look through `connection` costs
    raw = wrapper.connection
    if wrapper.in_atomic_block or raw is None:
        return content_version()
    try:
        with db_deadline.bounded(wrapper):
            cursor = raw.cursor()
            cursor.execute(_read_version_sql())
            row = cursor.fetchone()
            cursor.close()
    # the driver module: each backend's wrapper declares it, the stubs' base class does not
    except wrapper.Database.Error as error:  # type: ignore[attr-defined]
        raise DatabaseError(str(error)) from error
    return content_version() if row is None else row[0]  # none: the first is written


@functools.cache
def _read_version_sql():
    start = connection.ops.quote_name(ContentVersion._meta.db_table)
    changes = connection.ops.quote_name(ContentChange._meta.db_table)
    return f"SELECT number + COALESCE((SELECT MAX(id) FROM {changes}), 0) FROM {start} WHERE id = 1"


def _start_version(using):
    start = {"number": time.time_ns()}
    ContentVersion.objects.using(using).get_or_create(pk=1, defaults=start)


def _moved():
    """Queued for the commit (core/after_commit.py) when a transaction moves the version, it
    stands for "this transaction has moved the version": a rollback (of the transaction, or
    of the savepoint it was queued in) drops it with the move it stands for."""


def _moved_after_commit(using=DEFAULT_DB_ALIAS):
    """A committed change's second row: seen by every other connection at once, however
    many rows others added while the change was under way. Failing, it is an error, tried
    again at once and then by the task worker: until it is added, workers may serve pages
    built before the change (a long transaction's own row may be below one they read)."""
    for then in ("trying again", "the task worker moves it"):
        try:
            _add_change(using)
            return
        except DatabaseError:
            logger.error("The content version did not move after a commit: %s", then, exc_info=True)
            if not connections[using].in_atomic_block:
                connections[using].close_if_unusable_or_obsolete()  # a lost one: a new one
    move_version.enqueue(using)  # failing too, an error Django logs (a robust hook)


@task()
def move_version(using: str = DEFAULT_DB_ALIAS) -> None:
    """The task worker's part, when moving the version after a commit failed twice."""
    _add_change(using)


def _add_change(using):
    """Adds a row to the change log, moving the version. Now and then the log drops what no
    version read needs any more (only its highest id counts)."""
    added = ContentChange.objects.using(using).create()
    version_push.listener.moved()
    if added.pk % _PRUNE_EVERY == 0:
        ContentChange.objects.using(using).filter(pk__lt=added.pk - _PRUNE_EVERY).delete()


def _forget_move(connection):
    # A page read the version inside this transaction: its next change moves it again.
    if connection.in_atomic_block:
        after_commit.forget(_moved, using=connection.alias)


@changes.writes("labsite.ContentVersion", "labsite.ContentChange")
def content_changed(sender=None, using=DEFAULT_DB_ALIAS):
    """What follows a change of content (core/changes.py), or of every model (a migrate:
    an upgrade may change what every page says): the public pages are out of date. Moves
    the version in the change's own transaction, once however many rows the transaction
    changes, and once more when it has committed."""
    version_push.listener.moved()  # this process's next hit reads it, notice or not
    if connections[using].in_atomic_block:
        if not after_commit.once(_moved, using=using):
            return  # moved already, and no page has read the version since
        # robust: what it cannot do it says (an error), and the commit's other hooks still run
        after_commit.once(_moved_after_commit, using, using=using, robust=True)
    ContentChange.objects.using(using).create()


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
            return _django_answer(request.META, page, "hit")
        if _database_down():  # building the page would wait for it again
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
        page = _storable(response)
        if page is None:
            return response
        try:
            cache.set(key, page, PAGE_TIMEOUT)
        except Exception:
            _cache_unavailable()
        else:
            recent_pages.put(key, page)
        return _django_answer(request.META, page, "miss")


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
                status, headers, body = _answer(environ, page, "hit")
                start_response(status, headers)
                return [body]
        return self.application(environ, start_response)


def _stored_page(meta):
    """(the cache key of the page a request asks for, the page stored there or None), or
    (None, None) when the cache does not answer: the page is then built and not stored."""
    version = _serving_version()
    if version is None:
        return None, None
    key = page_key(meta, version)
    page = recent_pages.get(key)
    if page is not None:
        return key, page
    try:
        page = cache.get(key)
    except Exception:  # the cache server's own errors, whichever backend
        _cache_unavailable()
        return None, None
    if page is not None:
        recent_pages.put(key, page)
    return key, page


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


_last_version = None
_ask_database_at = 0.0


def _database_down():
    """Whether the database did not answer this process's last read of the version, less
    than DATABASE_RETRY seconds ago."""
    return time.monotonic() < _ask_database_at


def _serving_version():
    """The content version pages are served at: read from the database, or, while it does
    not answer (asked again every DATABASE_RETRY seconds), the version read last (by this
    process, else by any: the cache keeps it), under which stored pages are still current."""
    global _last_version, _ask_database_at
    if not _database_down():
        pushed = not connections[DEFAULT_DB_ALIAS].in_atomic_block  # a transaction reads
        if pushed and _last_version is not None and version_push.listener.unchanged():
            return _last_version
        try:
            version = _committed_version()
        except DatabaseError:
            _ask_database_at = time.monotonic() + DATABASE_RETRY
            connection.close()  # a new one next time (a hit never reaches Django's own check)
            logger.warning("The database does not answer: only stored pages are served")
        else:
            if pushed:
                version_push.listener.read()
            if version != _last_version:
                _last_version = version
                try:
                    cache.set(LAST_VERSION_KEY, version, None)
                except Exception:
                    _cache_unavailable()
            return version
    if _last_version is not None:
        return _last_version
    try:
        return cache.get(LAST_VERSION_KEY)
    except Exception:
        return None


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
