"""A web worker's database calls bounded on open connections too: a PostgreSQL that accepts
and never answers costs a request DATABASE_QUERY_DEADLINE seconds and the outage page (or
the stored page), never the worker.

`connect_timeout` bounds only new connections, and `statement_timeout` is the server's own
(a hung server never applies it); a worker holding a connection would wait on its socket
until gunicorn kills it. So each statement (and Django's check that a kept connection still
works) is noted with its deadline, and one watcher thread per process shuts the socket of a
statement past it: the driver then fails at once, as for a dropped connection, which the
site already answers (labsite/outages.py, labsite/page_cache/). For RETRY seconds after,
a new connection is refused at once rather than waiting `connect_timeout` again. Installed
by the web entry point (labsite/wsgi.py) only: the task worker and commands may run long
statements."""

import contextlib
import os
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.db import OperationalError
from django.db.backends.signals import connection_created

WATCH_EVERY = 0.2  # seconds between two looks at the statements running
RETRY = 5.0  # seconds after a cut or failed connection before connecting is tried again
_down_until = 0.0  # monotonic time before which the database is taken as not answering
_running: dict[int, tuple[float, Any]] = {}  # thread → (deadline, its DB-API connection)
_watcher: threading.Thread | None = None
_watcher_lock = threading.Lock()


def install() -> None:
    """Bound every PostgreSQL connection this process opens from now on."""
    connection_created.connect(_bound, dispatch_uid="labsite.db_deadline")


def _bound(sender: Any, connection: Any, **kwargs: Any) -> None:
    if connection.vendor != "postgresql" or _deadline in connection.execute_wrappers:
        return
    connection.execute_wrappers.append(_deadline)
    is_usable = connection.is_usable

    def bounded_is_usable() -> bool:
        with watched(connection.connection):
            return is_usable()

    connection.is_usable = bounded_is_usable
    connect = connection.get_new_connection

    def connect_unless_down(conn_params: dict[str, Any]) -> Any:
        global _down_until
        if time.monotonic() < _down_until:
            raise OperationalError("the database did not answer moments ago")
        try:
            return connect(conn_params)
        except Exception:
            _down_until = time.monotonic() + RETRY
            raise

    connection.get_new_connection = connect_unless_down


def _deadline(execute: Any, sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
    with watched(context["connection"].connection):
        return execute(sql, params, many, context)


def bounded(connection: Any) -> contextlib.AbstractContextManager[None]:
    """For a statement run on the connection's own driver cursor (past Django's execute
    wrappers): the same deadline, when the connection is bounded."""
    if _deadline in connection.execute_wrappers:
        return watched(connection.connection)
    return _UNBOUNDED


_UNBOUNDED = contextlib.nullcontext()


@contextlib.contextmanager
def watched(raw: Any) -> Iterator[None]:
    """A statement on the DB-API connection `raw` shut after the deadline."""
    key = threading.get_ident()
    _running[key] = (time.monotonic() + settings.DATABASE_QUERY_DEADLINE, raw)
    _start_watcher()
    try:
        yield
    finally:
        _running.pop(key, None)


def _start_watcher() -> None:
    global _watcher
    if _watcher is not None and _watcher.is_alive():
        return
    with _watcher_lock:
        if _watcher is None or not _watcher.is_alive():  # a fork leaves no thread behind
            _watcher = threading.Thread(target=_watch, daemon=True, name="db-deadline")
            _watcher.start()


def _watch() -> None:
    global _down_until
    while True:
        time.sleep(WATCH_EVERY)
        now = time.monotonic()
        for key, (deadline, raw) in list(_running.items()):
            if now > deadline and _running.get(key, (None,))[0] == deadline:
                _running.pop(key, None)
                _down_until = time.monotonic() + RETRY
                _shut(raw)


def _shut(raw: Any) -> None:
    """Shut the connection's socket (not close its descriptor, which the driver owns)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        duplicate = socket.socket(fileno=os.dup(raw.fileno()))
        try:
            duplicate.shutdown(socket.SHUT_RDWR)
        finally:
            duplicate.close()
