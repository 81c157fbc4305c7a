"""No visitor's request is a 500: every public page of the demo lab, in both languages,
with hostile values in every query parameter the public views read, and hostile last
segments in their addresses.

The pages are read from the site itself (its sitemap, and every URL pattern that takes no
argument), the parameters from the public filter forms plus the names the views read, so
a page or a filter added later is fuzzed without a word here."""

import re
from collections import defaultdict
from urllib.parse import quote, urlsplit

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from publications.views import PublicationFilter
from talks.views import _ListFilter
from tests.sitemaps import whole_sitemap

pytestmark = pytest.mark.django_db

HOSTILE = ["abc", "99999999999999999999999", "-1", "\x00", "é'\"<script>", "%", "1e9", "[]"]
PARAMS = {
    *PublicationFilter.base_fields,
    *_ListFilter.base_fields,
    *("q", "kind", "year", "page", "since", "role", "selected", "tag", "person", "lang"),
    *("format", "sort", "o", "citations", "authors", "p", "next"),
}
SEGMENTS = ["99999999999999999999999", "%00", "%2e%2e", quote("é'\"<script>"), "-1"]
PER_SECTION = 3  # pages of one kind (first segment, language) fuzzed


def _plain_paths(patterns, prefix=""):
    """The paths of the URL patterns that take no argument (admin and accounts aside)."""
    for pattern in patterns:
        route = str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            if route.startswith(("admin", "accounts")):
                continue
            yield from _plain_paths(pattern.url_patterns, prefix + route)
        elif isinstance(pattern, URLPattern):
            path = prefix + route
            if "<" not in path and not any(c in path for c in "^$()[]?*+\\"):
                yield "/" + path


def _public_paths(client):
    sitemap = whole_sitemap(client)
    paths = {urlsplit(loc).path for loc in re.findall(r"<loc>([^<]+)</loc>", sitemap)}
    paths |= set(_plain_paths(get_resolver().url_patterns))
    kinds = defaultdict(list)
    for path in sorted(paths):
        parts = [p for p in path.split("/") if p]
        language = parts[0] if parts[:1] == ["zh-hans"] else ""
        section = (parts[1:] if language else parts)[:1]
        kinds[(language, tuple(section), len(parts))].append(path)
    return [path for group in kinds.values() for path in group[:PER_SECTION]]


def _answer(client, path, params=None):
    client.raise_request_exception = False
    status = client.get(path, params or {}).status_code
    if status != 500:
        return status
    client.raise_request_exception = True
    try:
        client.get(path, params or {})
    except Exception as error:  # what the view raised
        return f"500 {type(error).__name__}: {error}"[:300]
    return 500


@pytest.mark.parametrize("page_cache", [False, True], ids=["built", "cached"])
def test_no_public_request_is_a_500(client, demo, settings, page_cache):
    settings.PAGE_CACHE = page_cache
    paths = _public_paths(client)
    results = []
    for path in paths:
        for value in HOSTILE:
            results.append(
                (f"{path} ?*={value!r}", _answer(client, path, dict.fromkeys(PARAMS, value)))
            )
        parts = path.rstrip("/").rsplit("/", 1)
        if len(parts) == 2 and parts[1]:
            for segment in SEGMENTS:
                hostile = f"{parts[0]}/{segment}/"
                results.append((hostile, _answer(client, hostile)))

    assert len(paths) > 30
    failed = [f"{where}: {answer}" for where, answer in results if str(answer).startswith("500")]
    assert not failed, "\n".join(failed)
