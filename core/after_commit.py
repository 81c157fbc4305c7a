"""Work that waits for the current transaction to commit, queued once however many changes
ask for it: a hundred rows saved in one transaction queue one rewrite, not a hundred.

What is queued is kept here, per connection, never read from Django's own list of commit
hooks (private to the connection). Each piece of work is handed to
`transaction.on_commit` as a hook object of its own, and only a weak reference to it is kept
here: Django holds the hook until it runs, and lets go of it when the transaction, or the
savepoint it was queued in, is rolled back (Django then drops the hooks queued in it).
Let go, the hook is gone at once (CPython frees an object when its last reference goes), so
the reference here names nothing and the next change queues the work again, as it must: a
rolled-back savepoint takes the work it queued with it, and Django says nothing of it."""

import functools
import logging
import threading
import weakref
from collections.abc import Callable
from typing import Any

from django.core.signals import request_finished, request_started
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper


class _Hook:
    """One piece of work, as Django holds it until the commit."""

    def __init__(self, work: Callable[[], Any], name: str) -> None:
        self.work = work
        self.ran = False
        self.__qualname__ = name  # Django names a failed robust hook by it

    def __call__(self) -> None:
        self.ran = True
        self.work()


# {connection: {(function, its arguments): the hook queued for it}}: connections are each
# thread's own, so no two threads meet in one entry.
_queued: "weakref.WeakKeyDictionary[BaseDatabaseWrapper, dict[Any, weakref.ref[_Hook]]]" = (
    weakref.WeakKeyDictionary()
)


def once(
    function: Callable[..., Any], *args: Any, using: str = DEFAULT_DB_ALIAS, robust: bool = False
) -> bool:
    """Call `function(*args)` when the transaction on `using` commits (at once outside a
    transaction), however many times this is asked before then. True when this call queued
    it (or, outside a transaction, ran it); False when it is queued already."""
    connection = connections[using]
    key = (function, args)
    queued = _queued.setdefault(connection, {})
    if connection.in_atomic_block:
        earlier = queued.get(key)
        hook = earlier() if earlier is not None else None
        if hook is not None and not hook.ran:
            return False
    hook = _Hook(functools.partial(function, *args), getattr(function, "__qualname__", "hook"))
    queued[key] = weakref.ref(hook)
    transaction.on_commit(hook, using=using, robust=robust)
    return True


def forget(function: Callable[..., Any], *args: Any, using: str = DEFAULT_DB_ALIAS) -> None:
    """The next `once(function, *args)` queues it again (what is queued still runs)."""
    _queued.get(connections[using], {}).pop((function, args), None)


# ---- after the response ------------------------------------------------------------------

logger = logging.getLogger(__name__)
_request = threading.local()  # .waiting: the work for after this thread's response, if any


def after_response(work: Callable[[], None]) -> None:
    """`work()` once the response of the request this thread serves is sent: Django says
    so (request_finished) when the server closes the response, after its last byte, and
    before the worker takes its next request. At once outside a request (a command, the
    task worker). Each piece of work once per request. What the visitor or editor waits
    for does not wait for it; a failure of it is logged, the response being gone."""
    waiting = getattr(_request, "waiting", None)
    if waiting is None:
        work()
    elif work not in waiting:
        waiting.append(work)


def _started(**kwargs: Any) -> None:
    _request.waiting = []


def _finished(**kwargs: Any) -> None:
    waiting, _request.waiting = getattr(_request, "waiting", None), None
    for work in waiting or ():
        try:
            work()
        except Exception:
            logger.exception("After the response: %s failed", work)


request_started.connect(_started, dispatch_uid="labsite-after-response-start")
request_finished.connect(_finished, dispatch_uid="labsite-after-response")
