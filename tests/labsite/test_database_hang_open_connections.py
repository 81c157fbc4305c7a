"""PostgreSQL hung after every worker already holds a connection (the case `connect_timeout`
does not cover): every page type answers its stored copy or the outage page within 5 s
under two gunicorn workers, and gunicorn kills no worker. The database is reached through
a proxy the test freezes: sockets stay open, nothing comes back, as from a hung server.

Runs on PostgreSQL (CI's PostgreSQL run); skipped elsewhere unless REQUIRE_SERVICES is set."""

import contextlib
import os
import socket
import threading
import time

import pytest
from django.core.management import call_command
from django.db import connection

from tests import served
from tests.labsite.test_database_outage import CACHED, _page_types

pytestmark = pytest.mark.django_db(transaction=True)


class FreezingProxy:
    """Forwards TCP to `target` until `frozen` is set; then holds every byte, both ways,
    and lets new connections in without answering them."""

    def __init__(self, target):
        self.target = target
        self.frozen = threading.Event()
        self.sockets = []
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client = self.listener.accept()[0]
            except OSError:
                return
            self.sockets.append(client)
            threading.Thread(target=self._connect, args=(client,), daemon=True).start()

    def _connect(self, client):
        while self.frozen.is_set():
            time.sleep(0.05)
        upstream = socket.create_connection(self.target)
        self.sockets.append(upstream)
        for source, sink in ((client, upstream), (upstream, client)):
            threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source, sink):
        try:
            while data := source.recv(65536):
                while self.frozen.is_set():
                    time.sleep(0.05)
                sink.sendall(data)
        except OSError:
            pass

    def close(self):
        self.frozen.clear()
        self.listener.close()
        for s in self.sockets:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()
        time.sleep(0.5)  # the server ends those sessions before the test database goes


@pytest.fixture
def proxied_env(tmp_path):
    if connection.vendor != "postgresql":
        if os.environ.get("REQUIRE_SERVICES"):
            pytest.fail("REQUIRE_SERVICES is set but PostgreSQL is not in use")
        pytest.skip("needs the PostgreSQL test run")
    call_command("load_demo", verbosity=0)
    db = connection.settings_dict
    proxy = FreezingProxy((db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432)))
    url = f"postgres://{db['USER']}@127.0.0.1:{proxy.port}/{db['NAME']}"
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
