"""The site served as production serves it (gunicorn, DEBUG off) on the test database, for
tests that need real worker processes: shared caches, outages of the services behind it."""

import contextlib
import http.client
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url():
    """The test database as a DATABASE_URL, for a process of its own."""
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def site_env(tmp_path, **variables):
    """The environment of a production worker on the test database."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "labsite.settings",
        "LABSITE_ENV_FILE": "/dev/null",
        "DEBUG": "off",
        "SECRET_KEY": "served-test-only",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "off",
        "DATABASE_URL": database_url(),
        "STATIC_ROOT": str(tmp_path / "static"),
        "MEDIA_ROOT": str(settings.MEDIA_ROOT),
        **variables,
    }


def request(port, path, timeout=30):
    """(status, headers, body) of a GET on the loopback (urllib is closed to tests), for
    the site's host name whatever the port (as behind a web server)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path, headers={"Host": "127.0.0.1"})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


@contextlib.contextmanager
def workers(env, count, log=None, options=()):
    """The ports of `count` gunicorn workers of the site, each its own server, running;
    their log appended to the file `log` when given; `options` added to gunicorn's."""
    # As a deployment does: with DEBUG off, pages name the collected, hashed files.
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    ports = [free_port() for _ in range(count)]
    command = [sys.executable, "-m", "gunicorn", "labsite.wsgi", "--workers", "1", *options]
    errors = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115 (closed below)
    servers = [
        subprocess.Popen(
            [*command, "--bind", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=errors,
        )
        for port in ports
    ]
    try:
        deadline = time.monotonic() + 30
        for port in ports:
            while True:
                try:
                    request(port, "/robots.txt", timeout=10)
                    break
                except OSError:
                    assert time.monotonic() < deadline, "a gunicorn worker did not start"
                    time.sleep(0.2)
        yield ports
    finally:
        for server in servers:
            server.terminate()
            server.wait(10)
        if log:
            errors.close()


class DatabaseProxy:
    """A TCP proxy to the test database, for outages with connections already open:
    `frozen` set, it holds every byte both ways and lets new connections in unanswered
    (a hung server); `refuse()` drops every connection and refuses new ones until
    `accept()` (a server restarting)."""

    def __init__(self, target):
        self.target = target
        self.frozen = threading.Event()
        self.sockets = []
        self.port = free_port()
        self.accept()

    def accept(self):
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", self.port))
        self.listener.listen(64)
        threading.Thread(target=self._accept, args=(self.listener,), daemon=True).start()

    def refuse(self):
        self._stop_listening()
        self._drop()

    def close(self):
        self.frozen.clear()
        self._stop_listening()
        self._drop()
        time.sleep(0.5)  # the server ends those sessions before the test database goes

    def _stop_listening(self):
        # A close alone leaves the port listening while a thread waits in accept().
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()

    def _drop(self):
        for s in self.sockets:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()
        self.sockets = []

    def _accept(self, listener):
        while True:
            try:
                client = listener.accept()[0]
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


def database_proxy():
    """A DatabaseProxy to the test database and the DATABASE_URL that goes through it."""
    db = settings.DATABASES["default"]
    proxy = DatabaseProxy((db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432)))
    return proxy, f"postgres://{db['USER']}@127.0.0.1:{proxy.port}/{db['NAME']}"
