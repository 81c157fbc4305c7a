"""PostgreSQL hung after every worker already holds a connection (the case `connect_timeout`
does not cover): every page type answers its stored copy or the outage page within 5 s
under two gunicorn workers, and gunicorn kills no worker. The database is reached through
a proxy the test freezes: sockets stay open, nothing comes back, as from a hung server.

Runs on PostgreSQL (CI's PostgreSQL run); skipped elsewhere unless REQUIRE_SERVICES is set."""

import os
import time

import pytest
from django.core.management import call_command
from django.db import connection

from tests import served
from tests.labsite.test_database_outage import CACHED, _page_types

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def proxied_env(tmp_path):
    if connection.vendor != "postgresql":
        if os.environ.get("REQUIRE_SERVICES"):
            pytest.fail("REQUIRE_SERVICES is set but PostgreSQL is not in use")
        pytest.skip("needs the PostgreSQL test run")
    call_command("load_demo", verbosity=0)
    proxy, url = served.database_proxy()
    env = served.site_env(
        tmp_path,
        DATABASE_URL=url,
        CONN_MAX_AGE="600",  # each worker keeps its connection, as in production
        CACHE_URL=f"filecache://{tmp_path / 'cache'}",
    )
    yield proxy, env
    proxy.close()


def test_a_database_hung_under_held_connections_costs_seconds_not_workers(proxied_env, tmp_path):
    proxy, env = proxied_env
    log = tmp_path / "gunicorn.log"
    pages = _page_types()
    with served.workers(env, 2, log=log, options=("--timeout", "10")) as ports:
        for port in ports:  # each worker holds a connection; the profile is stored
            for path in [CACHED, CACHED, "/people/"]:
                assert served.request(port, path)[0] == 200
        proxy.frozen.set()

        answers = {}
        for port in ports:
            for path in [CACHED, *pages]:
                started = time.monotonic()
                status, headers, _body = served.request(port, path, timeout=30)
                answers[port, path] = (status, headers, time.monotonic() - started)

    for (port, path), (status, headers, seconds) in answers.items():
        assert seconds < 5, (port, path, seconds)
        if path == CACHED:
            assert (status, headers.get("X-Page-Cache")) == (200, "hit")
        elif status == 200:  # stored before the database hung
            assert headers.get("X-Page-Cache") == "hit", (port, path)
        else:
            assert status == 503, (port, path, status)
            assert headers.get("Retry-After") == "60"
    served_by_page = {path: {answers[port, path][0] for port in ports} for path in pages}
    assert served_by_page["/people/feng-ren/"] == {503}  # never stored: the outage page
    assert "WORKER TIMEOUT" not in log.read_text()
