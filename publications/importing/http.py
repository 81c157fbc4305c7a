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


class JsonClient(Protocol):
    """What the readers need of a client: HttpClient, or a recorded stand-in in tests."""

    def get_json(self, url: str, headers: dict[str, str] | None = None) -> Any: ...


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
    """Fetches JSON over HTTPS. Tests pass a stand-in with the same `get_json`."""

    timeout = 10  # seconds, per call
    retries = 2
    pause = 1.0  # seconds before the first retry; doubled each time
    sleep = staticmethod(time.sleep)

    def get_json(self, url: str, headers: dict[str, str] | None = None) -> Any:
        headers = {"Accept": "application/json", "User-Agent": user_agent(), **(headers or {})}
        request = urllib.request.Request(url, headers=headers)
        host = urllib.parse.urlsplit(url).hostname or url
        for attempt in range(self.retries + 1):
            last = attempt == self.retries
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return json.loads(response.read().decode("utf-8"))
            except urllib.error.HTTPError as error:
                if error.code not in RETRY_STATUSES or last:
                    raise ImportProblem(f"{host} answered {error.code} {error.reason}") from None
                self.sleep(self._wait(attempt, error.headers.get("Retry-After")))
            except (urllib.error.URLError, TimeoutError, OSError) as error:
                if last:
                    reason = getattr(error, "reason", error)
                    raise ImportProblem(f"could not reach {host}: {reason}") from None
                self.sleep(self._wait(attempt, None))
            except (json.JSONDecodeError, UnicodeDecodeError):
                raise ImportProblem(f"{host} did not answer with JSON") from None
        raise AssertionError("unreachable")

    def _wait(self, attempt: int, retry_after: str | None) -> float:
        wait = self.pause * 2**attempt
        if retry_after and retry_after.isdigit():
            wait = max(wait, min(int(retry_after), 5))
        return wait
