"""Django's Redis cache, skipped for a while once it fails to answer: a hung or refusing
cache server costs the one request that finds it out (its socket timeout), not every page.

Each process remembers, per cache server, until when to skip it (CACHE_SKIP_SECONDS after
a failure); meanwhile every call fails at once with the error callers already handle for a
cache that does not answer (pages are built afresh and not stored; /health/ says
"degraded"). The first call after that time asks the server again."""

import functools
import time
from collections.abc import Callable
from typing import Any

import redis.exceptions
from django.conf import settings
from django.core.cache.backends import redis as redis_backend

# Failures that say the server does not answer (not a bad value or command of ours).
_NOT_ANSWERING = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)
_skip_until: dict[str, float] = {}  # server location → monotonic time to ask it again


class CacheSkipped(redis.exceptions.ConnectionError):
    """The cache server failed to answer moments ago; it is not asked again yet."""

    cache_skipped = True  # read by /health/, which imports no Redis client


class RedisCache(redis_backend.RedisCache):
    """Django's RedisCache with the breaker: `CACHE_URL=redis://…` selects it (settings)."""


def _guarded(name: str) -> Callable[..., Any]:
    method = getattr(redis_backend.RedisCache, name)

    @functools.wraps(method)
    def guarded(self: RedisCache, *args: Any, **kwargs: Any) -> Any:
        location = str(self._servers)  # type: ignore[attr-defined]  # private: not in the stubs
        if time.monotonic() < _skip_until.get(location, 0.0):
            raise CacheSkipped(
                f"the cache did not answer less than {settings.CACHE_SKIP_SECONDS} s ago"
            )
        try:
            return method(self, *args, **kwargs)
        except _NOT_ANSWERING:
            _skip_until[location] = time.monotonic() + settings.CACHE_SKIP_SECONDS
            raise

    return guarded


# Every call that reaches the server (the others are built on these).
for _name in (
    "add",
    "get",
    "set",
    "touch",
    "delete",
    "get_many",
    "has_key",
    "incr",
    "set_many",
    "delete_many",
    "clear",
):
    setattr(RedisCache, _name, _guarded(_name))
