"""Site-wide answers that are not pages of content: the icon, robots.txt, the health check,
and where a member who just chose their password lands."""

import contextlib
import logging
import os
import queue
import shutil
import threading
import uuid
from collections.abc import Callable
from concurrent.futures import Future, wait
from pathlib import Path

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.cache import cache, caches
from django.core.cache.backends.dummy import DummyCache
from django.core.files.storage import default_storage
from django.db import connections
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.html import escape
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from core.names import initials
from core.storage import local_folder
from lab.models import LabSettings

logger = logging.getLogger(__name__)
# Seconds /health/ gives each part: a balancer gives up after 2-5 s, and a part that hangs
# must be named in time, not make the whole answer late (each runs in a thread of its own).
HEALTH_CHECK_SECONDS = 1.2
_pending: dict[str, Future[str]] = {}  # part → its last check, maybe still waiting
_pending_lock = threading.Lock()


@require_GET
def favicon(request):
    """The site's icon: the one set in the lab settings, else the lab's logo, else its
    initials on its colour (an SVG, so it is sharp at every size). /favicon.ico leads here
    for old browsers."""
    lab = LabSettings.load()
    if lab.favicon or lab.logo:
        return redirect((lab.favicon or lab.logo).url)
    letters = "".join([c for c in initials(lab.name) if c.isalnum()][:2])
    colour = lab.palette.light.accent if lab.palette else "#1f5fa8"
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
        f'<rect width="64" height="64" rx="12" fill="{colour}"/>'
        '<text x="32" y="42" font-family="system-ui, sans-serif" font-size="28" '
        f'font-weight="700" fill="#fff" text-anchor="middle">{escape(letters or "L")}</text>'
        "</svg>"
    )
    return HttpResponse(svg, content_type="image/svg+xml")


@require_GET
def site_colours(request, version):
    """The lab's colour as the stylesheet's custom properties, for the light and the dark
    theme (lab.look), linked from every page when the lab sets one. A file of its own, as
    the Content-Security-Policy allows no inline style; its address names its content, so
    browsers keep it for good and a new colour is a new address."""
    palette = LabSettings.load().palette
    if palette is None or palette.version != version:
        raise Http404("The lab's colours are elsewhere.")
    response = HttpResponse(palette.css, content_type="text/css; charset=utf-8")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


@login_required
def my_profile(request):
    """Where a member lands after choosing their password: their own profile's edit page
    (the admin's home for an account that edits no profile)."""
    person = getattr(request.user, "person", None)
    if person is None:
        return redirect("admin:index")
    return redirect("admin:people_person_change", person.pk)


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
    with each part of the stack named and what is wrong with it. The database is needed:
    without it, 503. The cache, the media storage and the disk are not needed to serve
    pages (they are then built afresh, or uploads refused with the outage page): a fault
    there is "degraded", still 200, as the workers share them and a balancer taking every
    worker out would take the site down. It reads nothing a visitor could not see."""
    checks = _within_deadline(
        {
            "database": _database_check,
            "cache": _cache_check,
            "storage": _storage_check,
            "disk": _disk_check,
        }
    )
    if checks["database"] != "ok":
        status = "error"
    elif all(value in ("ok", "off") for value in checks.values()):
        status = "ok"
    else:
        status = "degraded"
    for part, value in checks.items():
        if value not in ("ok", "off"):
            logger.warning("Health: %s: %s", part, value)
    return JsonResponse({"status": status, **checks}, status=503 if status == "error" else 200)


def _within_deadline(checks: dict[str, Callable[[], str]]) -> dict[str, str]:
    """Each part's answer, all asked at once and awaited HEALTH_CHECK_SECONDS at most; a part
    still checking then is "no answer". A part whose check of an earlier request still waits
    is not asked again (its answer, should it come in time, is this one's): a hung service
    holds one thread per process, whatever the balancer's rate."""
    futures = {}
    with _pending_lock:
        for part, check in checks.items():
            previous = _pending.get(part)
            if previous is None or previous.done():
                previous = _pending[part] = _checker(part).ask(check)
            futures[part] = previous
    done, _ = wait(futures.values(), timeout=HEALTH_CHECK_SECONDS)
    late = f"error: no answer within {HEALTH_CHECK_SECONDS:g} s"
    return {part: f.result() if f in done else late for part, f in futures.items()}


class _Checker:
    """One part's checks, run one after another in a daemon thread of its own that lives as
    long as the process: what the check opens in it (a database connection, the object
    storage's client, both per thread) is opened once and used again by every later check.
    A new thread per check opened a new PostgreSQL connection and built a new S3 client
    each time, which under a busy CPU took longer than the limit ("database: no answer"
    while the database was fine). A daemon thread: one that hangs does not keep its worker
    from stopping."""

    def __init__(self, part: str) -> None:
        self.asked: queue.SimpleQueue[tuple[Callable[[], str], Future[str]]] = queue.SimpleQueue()
        threading.Thread(target=self._run, daemon=True, name=f"health-{part}").start()

    def ask(self, check: Callable[[], str]) -> Future[str]:
        future: Future[str] = Future()
        self.asked.put((check, future))
        return future

    def _run(self) -> None:
        while True:
            check, future = self.asked.get()
            try:
                future.set_result(check())
            except BaseException as error:  # the checks answer their errors; this is a bug
                future.set_exception(error)


_checkers: dict[str, _Checker] = {}


def _checker(part: str) -> _Checker:
    """The part's checker (called under _pending_lock)."""
    if part not in _checkers:
        _checkers[part] = _Checker(part)
    return _checkers[part]


def close_health_connections(seconds: float = 5.0) -> None:
    """Close the database connections the checkers keep (tests: before the test database
    is flushed or dropped)."""

    def close() -> str:
        connections.close_all()
        return "closed"

    with _pending_lock:
        asked = [checker.ask(close) for checker in _checkers.values()]
    wait(asked, timeout=seconds)


def _database_check():
    """Says "ok" when the database runs a statement, on the checker's own connection, kept
    open between checks; one that broke since (a restart) is opened again, once."""
    connection = connections["default"]
    for attempt in (1, 2):
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
            return "ok"
        except Exception as error:  # any failure is the answer, not a 500
            with contextlib.suppress(Exception):
                connection.close()
            if attempt == 2 or connection.vendor == "sqlite":
                return f"error: {type(error).__name__}"
    return "error: unreachable"


def _cache_check():
    """Says "ok" when the cache keeps a value ("off" for a cache configured to keep
    nothing), else what went wrong."""
    if isinstance(caches["default"], DummyCache):
        return "off"
    key = f"labsite:health:{uuid.uuid4().hex}"
    try:
        cache.set(key, "ok", 10)
        kept = cache.get(key) == "ok"
        cache.delete(key)
    except Exception as error:  # any failure is the answer, not a 500
        # The breaker's refusal (labsite/page_cache/breaker.py) says why; others are named.
        return f"error: {error if getattr(error, 'cache_skipped', False) else type(error).__name__}"
    return "ok" if kept else "error: value not kept"


def _storage_check():
    """Says "ok" when the media storage answers (object storage: one HEAD request, within
    its timeouts; a folder: it exists and may be written), else what went wrong."""
    try:
        root = local_folder(default_storage)
        if root is not None:
            if not (root.is_dir() and os.access(root, os.W_OK)):
                return "error: the media folder is missing or not writable"
        else:
            default_storage.exists("labsite-health-check")
    except Exception as error:  # any failure is the answer, not a 500
        return f"error: {type(error).__name__}"
    return "ok"


def _disk_check():
    """Says "ok" while every folder the site writes to (the media folder, an SQLite
    database's) has at least HEALTH_MIN_FREE_DISK_MB free, else which is short."""
    media = local_folder(default_storage)
    folders = {media} if media else set()
    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("sqlite3"):
        folders.add(Path(database["NAME"]).parent)
    least = settings.HEALTH_MIN_FREE_DISK_MB * 2**20
    for folder in sorted(folders):
        try:
            free = shutil.disk_usage(_existing(folder)).free
        except OSError as error:
            return f"error: {type(error).__name__}"
        if free < least:
            return f"error: {free // 2**20} MB free for {folder.name or folder}"
    return "ok"


def _existing(folder):
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder
