"""The content version pushed to each web worker, on PostgreSQL: a cache hit asks the
database nothing while nothing has moved it.

Whatever moves the version notifies the channel `labsite_content` when it commits (the
triggers of migration labsite 0008, so a restore, a flush or a change by hand does too).
Each web process keeps one connection of its own that LISTENs there; a cache hit looks
whether that connection's socket has anything to read (a poll that never waits) and reads
the version again only when it has, or when this process has itself changed content. A
change committed by another process reaches a worker when its notice does (on one machine,
measured: already there when the commit returned 181 times in 200, the latest 0.11 ms
after); while the listening connection is not there (not yet
opened, lost, or the database is not PostgreSQL) every hit reads the version, as before.

Off with CONTENT_VERSION_PUSH=off, for a database behind a pooler that cannot LISTEN
(PgBouncer in transaction mode)."""

import contextlib
import logging
import os
import select
import threading
import time
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

from labsite import db_deadline

CHANNEL = "labsite_content"  # labsite/migrations/0008_version_pushed.py
RETRY = 5.0  # seconds between two tries to open the listening connection
CONNECT_TIMEOUT = 2  # seconds: the try is made during a visitor's request
logger = logging.getLogger(__name__)


class Listener:
    """One process's listening connection, and whether the version it read last is still
    the version (`current`)."""

    def __init__(self) -> None:
        self._connection: Any = None
        self._pid = 0
        self._current = False
        self._retry_at = 0.0
        self._lock = threading.Lock()
        self._forked: list[Any] = []  # a parent's connection, never closed by a child

    def unchanged(self) -> bool:
        """Whether the version this process read last is still the version: it listens,
        and nothing moved the version since that read. False: read it again, then call
        `read()`."""
        with self._lock:
            if self._connection is None or self._pid != os.getpid():
                if time.monotonic() >= self._retry_at:  # else a hit looks no further
                    self._listen()
                return False
            if not self._current:
                return False
            if select.select((self._connection.pgconn.socket,), (), (), 0)[0]:
                self._current = False
                self._drain()
                return False
            return True

    def read(self) -> None:
        """The version was just read (after `unchanged()` said so): current until the next
        notice."""
        self._current = self._connection is not None

    def moved(self) -> None:
        """This process changed content (labsite.page_cache.content_changed): its next hit
        reads the version, without waiting for its own notice."""
        self._current = False

    def _listen(self) -> None:
        if self._connection is not None and self._pid != os.getpid():
            self._forked.append(self._connection)  # closing it would close the parent's
        self._connection = None
        self._retry_at = time.monotonic() + RETRY
        wrapper = connections[DEFAULT_DB_ALIAS]
        if not settings.CONTENT_VERSION_PUSH or wrapper.vendor != "postgresql":
            return
        params = wrapper.get_connection_params()
        # the driver module: each backend's wrapper declares it, the stubs' base class does not
        driver = wrapper.Database  # type: ignore[attr-defined]
        params["connect_timeout"] = CONNECT_TIMEOUT
        try:
            connection = driver.connect(**params, autocommit=True)
            with db_deadline.watched(connection):
                connection.execute(f"LISTEN {CHANNEL}")
        except driver.Error:
            logger.warning("Cannot listen for content changes: every cache hit reads the version")
            return
        self._connection, self._pid, self._current = connection, os.getpid(), False

    def _drain(self) -> None:
        """Read the notices that came (never waiting); a lost connection is dropped, and
        opened again by a later hit."""
        from psycopg import pq

        pgconn = self._connection.pgconn
        try:
            pgconn.consume_input()
            while pgconn.notifies() is not None:
                pass
        except Exception:  # the driver's own errors: the connection is gone
            self._drop()
            return
        if pgconn.status != pq.ConnStatus.OK:  # ended by the server
            self._drop()

    def _drop(self) -> None:
        if self._connection is not None and self._pid == os.getpid():
            with contextlib.suppress(Exception):
                self._connection.close()
        self._connection, self._current = None, False

    def forget(self) -> None:
        """Close the listening connection, and listen again at the next hit (tests: each
        starts without one)."""
        with self._lock:
            self._drop()
            self._retry_at = 0.0


listener = Listener()
