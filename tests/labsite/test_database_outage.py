"""While the database refuses connections, or accepts them and never answers, every page
answers within seconds: a page the cache holds is served, anything else gets the outage
page (503) naming the database, and /health/ says the database failed. Production's stack:
gunicorn workers, the cache shared through files (any shared cache would do)."""

import json
import time

import pytest
from django.core.management import call_command

from publications.models import Publication
from talks.models import Talk
from tests import served

pytestmark = pytest.mark.django_db(transaction=True)

CACHED = "/people/teng-ma/"


def _page_types():
    """One address of each kind of page a visitor or an editor may ask for."""
    paper = Publication.objects.published().first()
    talk = next(t for t in Talk.objects.published().for_listing() if t.has_page)
    return [
        "/",
        "/people/",
        "/people/feng-ren/",
        "/zh-hans/people/feng-ren/",
        "/people/feng-ren/publications.bib",
        "/publications/",
        paper.get_absolute_url(),
        "/publications/export.bib",
        "/publications/feed/",
        "/talks/",
        talk.get_absolute_url(),
        "/awards/",
        "/news/",
        "/news/feed/",
        "/sitemap.xml",
        "/favicon.svg",
        "/no-such-page/",
        "/admin/login/",
    ]


@pytest.fixture
def stored_then_database_gone(tmp_path):
    """Serve the demo lab once (the profile stored in the shared cache), then yield an
    environment whose database is elsewhere (set DATABASE_URL)."""
    call_command("load_demo", verbosity=0)
    env = served.site_env(tmp_path, CACHE_URL=f"filecache://{tmp_path / 'cache'}")
    with served.workers(env, 1) as (port,):
        served.request(port, CACHED)
        status, headers, _body = served.request(port, CACHED)
        assert (status, headers.get("X-Page-Cache")) == (200, "hit")
    return env


def _answers_while_down(env):
    pages = _page_types()
    answers = {}
    with served.workers(env, 1) as (port,):
        for path in [CACHED, *pages, "/health/"]:
            started = time.monotonic()
            status, headers, body = served.request(port, path, timeout=20)
            answers[path] = (status, headers, body, time.monotonic() - started)
    return pages, answers


def _check(pages, answers):
    status, headers, body, seconds = answers[CACHED]
    assert (status, headers.get("X-Page-Cache")) == (200, "hit")  # the stored page
    assert "Teng Ma" in body.decode() and seconds < 5
    for path in pages:
        status, headers, body, seconds = answers[path]
        assert status == 503, (path, status)
        assert "database is not answering" in body.decode() or "数据库没有响应" in body.decode()
        assert headers.get("Retry-After") == "60", path
        assert seconds < 5, (path, seconds)
    status, _headers, body, seconds = answers["/health/"]
    assert status == 503 and seconds < 5
    assert json.loads(body)["status"] == "error"
    assert json.loads(body)["database"].startswith("error: ")


def test_while_the_database_refuses_connections_every_page_answers_at_once(
    stored_then_database_gone,
):
    gone = f"postgres://u@127.0.0.1:{served.free_port()}/lab"  # nothing listens there

    _check(*_answers_while_down({**stored_then_database_gone, "DATABASE_URL": gone}))


def test_while_the_database_hangs_every_page_answers_within_seconds(
    stored_then_database_gone, silent_server
):
    hung = silent_server.replace("http://", "postgres://u@") + "/lab"  # accepts, never answers
    env = {**stored_then_database_gone, "DATABASE_URL": hung, "DATABASE_CONNECT_TIMEOUT": "2"}

    _check(*_answers_while_down(env))
