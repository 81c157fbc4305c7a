"""Fetching JSON from the scholarly APIs: bounded, retried, and polite.

Each call has a timeout; a failed connection, a 429 or a 5xx answer is retried a few times
with a growing pause (honouring a short Retry-After); the user agent names the site and a
contact address, which Crossref's "polite pool" and OpenAlex ask for.
"""

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Protocol

from django.conf import settings

from publications.importing.records import ImportProblem

RETRY_STATUSES = {429, 500, 502, 503, 504}
MAX_ANSWER_BYTES = 50 * 1024 * 1024  # no answer of these services comes near it


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

    timeout = 10  # seconds, per call
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
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return response.read(MAX_ANSWER_BYTES + 1)[:MAX_ANSWER_BYTES]
            except urllib.error.HTTPError as error:
                if error.code not in RETRY_STATUSES or last:
                    raise ImportProblem(f"{host} answered {error.code} {error.reason}") from None
                self.sleep(self._wait(attempt, error.headers.get("Retry-After")))
            except (urllib.error.URLError, TimeoutError, OSError) as error:
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
