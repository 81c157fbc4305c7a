"""The static copy's search: with no labsite server running, the copy's search page (its
Pagefind index, served by a plain file server) finds what the live search finds."""

import functools
import http.server
import re
import threading

import pytest
from django.utils import translation

from labsite import search
from labsite.static_site import export_static
from tests.labsite.test_search import DEMO_QUERIES

# Ten of the live query set, both languages; Pagefind has no typo tolerance, so no typos.
SAMPLE = [
    "Mooncake",
    "Teng Ma",
    "马腾",
    "HydraRPC",
    "log parsing",
    "RDMA middleware",
    "开源",
    "加入我们",
    "Distributed Storage Systems",
    "CXL era",
]


@pytest.fixture
def copy_served(demo, tmp_path):
    search.rebuild()
    export_static(tmp_path / "copy", "http://127.0.0.1/")
    handler = functools.partial(
        http.server.SimpleHTTPRequestHandler, directory=str(tmp_path / "copy")
    )
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


LOADED = """() => {
  const titles = [...document.querySelectorAll(".pagefind-ui__result-title")].slice(0, 5);
  return titles.length > 0 && titles.every((t) => !/^[.\\s]*$/.test(t.innerText));
}"""


def test_the_static_copys_search_finds_what_the_live_search_finds(browser, copy_served, shots):
    expected = dict(DEMO_QUERIES)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    misses = []
    for query in SAMPLE:
        language = "zh-hans" if re.search(r"[\u4e00-\u9fff]", expected[query]) else "en"
        with translation.override(language):
            live = ["".join(p for p, _hit in r.title) for r in search.find(query).results[:5]]
        assert any(title.startswith(expected[query]) for title in live), (query, live)
        prefix = "/zh-hans" if language == "zh-hans" else ""
        page.goto(f"{copy_served}{prefix}/search/?q={query}")
        # Pagefind shows each result as ". . ." until its page's data has loaded
        page.wait_for_function(LOADED, timeout=20_000)
        found = page.locator(".pagefind-ui__result-title").all_inner_texts()[:5]
        # the copy titles a profile "Teng Ma / 马腾" as its page does
        wanted = expected[query].replace(" (马腾)", "")
        if not any(title.startswith(wanted) for title in found):
            misses.append((query, found))
    page.screenshot(path=str(shots / "static-search-1280.png"))
    assert misses == []
