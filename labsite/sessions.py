"""Sessions kept in the database and read through the cache (the set-up with Redis) that
keep editors signed in while the cache does not answer: read from the database meanwhile.
Django's cached_db store already survives a failed cache write. A sign-out still needs the
cache (a session left there would be read from it again once it answers), so it is
refused meanwhile, and said so."""

import logging

from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.backends.db import SessionStore as DatabaseStore

from labsite.outages import CacheUnavailable

logger = logging.getLogger(__name__)


class SessionStore(cached_db.SessionStore):
    def load(self):
        try:
            return super().load()
        except Exception:  # the cache server's own errors, whichever backend
            logger.warning("The cache does not answer: a session is read from the database")
            return DatabaseStore.load(self)

    def exists(self, session_key):
        try:
            return super().exists(session_key)
        except Exception:
            return DatabaseStore.exists(self, session_key)

    def cycle_key(self):
        # Signing in: the old key held what the session had before, nothing signed in, so
        # it may be left behind (it expires like any session).
        try:
            super().cycle_key()
        except CacheUnavailable:
            logger.warning("The cache does not answer: a session's old key is left in it")

    def delete(self, session_key=None):
        # The cache's copy first: while the cache does not answer, nothing is ended and the
        # editor is told so. Ended in the database alone, the session would be read from
        # the cache again once it answers.
        session_key = session_key or self.session_key
        if session_key is not None:
            try:
                self._cache.delete(self.cache_key_prefix + session_key)
            except Exception as error:
                raise CacheUnavailable(f"A session could not be ended ({error!r}).") from error
        DatabaseStore.delete(self, session_key)
