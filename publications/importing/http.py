"""Fetching JSON from the scholarly APIs: bounded, retried, and polite.

Each call has a deadline for the whole answer (a source dripping one byte at a time is cut
off at it, not only one that stops), a size cap, and follows redirects only within the host
it asked (a redirect elsewhere, an internal address included, is refused and named). A failed
connection, a 429 or a 5xx answer is retried a few times with a growing pause (honouring a
short Retry-After); the user agent names the site and a contact address, which Crossref's
"polite pool" and OpenAlex ask for.
"""

import contextlib
import functools
import http.client
import json
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Protocol

from django.conf import settings

from publications.importing.records import ImportProblem

RETRY_STATUSES = {429, 500, 502, 503, 504}
MAX_ANSWER_BYTES = 50 * 1024 * 1024  # no answer of these services comes near it


class NotFound(ImportProblem):
    """The service answered that it has no such thing (404): an answer, not an outage."""


class JsonClient(Protocol):
    """What the readers need of a client: HttpClient, or a recorded stand-in in tests."""

    def get_json(self, url: str, headers: dict[str, str] | None = None) -> Any: ...

    def get_text(self, url: str, headers: dict[str, str] | None = None) -> str: ...


def contact_email() -> str:
    """Who the APIs may write to about this site's requests: CONTACT_EMAIL, else the lab's
    contact address."""
    if settings.CONTACT_EMAIL:
        return settings.CONTACT_EMAIL
    from lab.models import LabSettings

    return LabSettings.load().contact_email


def user_agent() -> str:
    contact = contact_email()
    mailto = f"; mailto:{contact}" if contact else ""
    return f"labsite/1.0 (+{settings.SITE_URL}{mailto})"


class HttpClient:
    """Fetches JSON (or text, for the services that answer XML) over HTTP(S), pausing between
    requests to one host as its service asks. Tests pass a stand-in with the same methods, or
    point the base-address settings at a local server."""

    timeout = 10.0  # seconds for a whole answer, headers and body
    max_bytes = MAX_ANSWER_BYTES
    retries = 2
    pause = 1.0  # seconds before the first retry; doubled each time
    sleep = staticmethod(time.sleep)
    clock = staticmethod(time.monotonic)

    def __init__(self, intervals: dict[str, float] | None = None) -> None:
        # {host: seconds} to leave between two requests to it (a rate limit per source)
        self.intervals = intervals or {}
        self.last: dict[str, float] = {}

    def get_json(self, url: str, headers: dict[str, str] | None = None) -> Any:
        body = self._get(url, {"Accept": "application/json", **(headers or {})})
        try:
            return json.loads(body.decode("utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise ImportProblem(f"{_host(url)} did not answer with JSON") from None

    def get_text(self, url: str, headers: dict[str, str] | None = None) -> str:
        body = self._get(url, headers or {})
        try:
            return body.decode("utf-8")
        except UnicodeDecodeError:
            raise ImportProblem(f"{_host(url)} did not answer with UTF-8 text") from None

    def _get(self, url: str, headers: dict[str, str]) -> bytes:
        request = urllib.request.Request(url, headers={"User-Agent": user_agent(), **headers})
        host = _host(url)
        for attempt in range(self.retries + 1):
            last = attempt == self.retries
            self._wait_turn(host)
            watchdog = _Watchdog(self.timeout)
            try:
                with watchdog, _opener(watchdog).open(request, timeout=self.timeout) as response:
                    body = response.read(self.max_bytes + 1)
                if watchdog.expired:
                    raise ImportProblem(f"{host} did not answer in full within {self.timeout:g} s")
                if len(body) > self.max_bytes:
                    megabytes = self.max_bytes / 1024 / 1024
                    raise ImportProblem(
                        f"{host}'s answer is larger than {megabytes:g} MB; not read"
                    )
                return body
            except urllib.error.HTTPError as error:
                if error.code == 404:
                    raise NotFound(f"{host} answered {error.code} {error.reason}") from None
                if error.code not in RETRY_STATUSES or last:
                    raise ImportProblem(f"{host} answered {error.code} {error.reason}") from None
                self.sleep(self._wait(attempt, error.headers.get("Retry-After")))
            except (urllib.error.URLError, http.client.HTTPException, OSError) as error:
                if watchdog.expired:  # a slow source is not asked again: it would be as slow
                    raise ImportProblem(
                        f"{host} did not answer in full within {self.timeout:g} s"
                    ) from None
                if last:
                    reason = getattr(error, "reason", error)
                    raise ImportProblem(f"could not reach {host}: {reason}") from None
                self.sleep(self._wait(attempt, None))
        raise AssertionError("unreachable")

    def _wait_turn(self, host: str) -> None:
        interval = self.intervals.get(host, 0.0)
        if interval and host in self.last:
            remaining = self.last[host] + interval - self.clock()
            if remaining > 0:
                self.sleep(remaining)
        self.last[host] = self.clock()

    def _wait(self, attempt: int, retry_after: str | None) -> float:
        wait = self.pause * 2**attempt
        if retry_after and retry_after.isdigit():
            wait = max(wait, min(int(retry_after), 5))
        return wait


def _host(url: str) -> str:
    return urllib.parse.urlsplit(url).netloc or url


class _Watchdog:
    """Ends a request at its deadline whatever it is waiting for (the connection, the
    headers, the body): a timer shuts its sockets down, which wakes the blocked read. A
    socket timeout alone bounds each read, not the answer."""

    def __init__(self, seconds: float) -> None:
        self.sockets: list[socket.socket] = []
        self.expired = False
        self.lock = threading.Lock()
        self.timer = threading.Timer(seconds, self._expire)
        self.timer.daemon = True

    def __enter__(self) -> "_Watchdog":
        self.timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.timer.cancel()

    def watch(self, sock: socket.socket) -> None:
        with self.lock:
            self.sockets.append(sock)
            if self.expired:
                _shut(sock)

    def _expire(self) -> None:
        with self.lock:
            self.expired = True
            for sock in self.sockets:
                _shut(sock)


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):  # already closed
        sock.shutdown(socket.SHUT_RDWR)


class _WatchedHTTPConnection(http.client.HTTPConnection):
    """A connection whose socket its watchdog can shut (before TLS, for HTTPS too)."""

    def __init__(self, *args: Any, watchdog: _Watchdog, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        create = self._create_connection  # type: ignore[has-type]

        def create_watched(*args: Any, **kwargs: Any) -> socket.socket:
            sock = create(*args, **kwargs)
            watchdog.watch(sock)
            return sock

        self._create_connection = create_watched


class _WatchedHTTPSConnection(_WatchedHTTPConnection, http.client.HTTPSConnection):
    pass


class _HTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, watchdog: _Watchdog) -> None:
        super().__init__()
        self.watchdog = watchdog

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        connection = functools.partial(_WatchedHTTPConnection, watchdog=self.watchdog)
        return self.do_open(connection, req)


class _HTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, watchdog: _Watchdog) -> None:
        super().__init__()
        self.watchdog = watchdog

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        connection = functools.partial(_WatchedHTTPSConnection, watchdog=self.watchdog)
        return self.do_open(connection, req)


class _SameHostRedirects(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only to the host (and port) asked: a source must not send the
    site's requests to another server, least of all one inside its network."""

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: Any,
        code: int,
        msg: str,
        headers: Any,
        newurl: str,
    ) -> urllib.request.Request | None:
        asked, sent = urllib.parse.urlsplit(req.full_url), urllib.parse.urlsplit(newurl)
        if sent.scheme not in ("http", "https") or (sent.hostname, sent.port) != (
            asked.hostname,
            asked.port,
        ):
            fp.close()
            raise ImportProblem(
                f"{asked.netloc} redirected to {sent.netloc or newurl}, another host; not followed"
            )
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _opener(watchdog: _Watchdog) -> urllib.request.OpenerDirector:
    return urllib.request.build_opener(
        _HTTPHandler(watchdog), _HTTPSHandler(watchdog), _SameHostRedirects()
    )
