"""Public pages served whole from the cache to anonymous visitors until the content changes.

One package, one module a layer:
- `version`: the content version a page is stored under, and what moves it;
- `push`: on PostgreSQL, each worker is told when the version moves, so a hit asks the
  database nothing while it has not;
- `keys`: which requests the cache may answer, and each page's key;
- `stored`: a page as stored (gzip form, ETag, headers made once) and the pages a process
  keeps beside the cache;
- `serve`: the middleware that stores pages, and the WSGI wrapper that answers a hit
  before Django starts;
- `breaker`: Redis skipped for a while once it fails to answer.
What each layer earns, measured, is in bench/page_cache_layers.py.

**The version.** Every save, delete or link change of what pages show moves the *content
version*, a number kept in the database beside the content, inside the change's own
transaction (imports, restores, reverts and settings edits are saves too, or say so
themselves; core/content.py declares which models pages show). The version is where it
started (labsite.models.ContentVersion) plus the highest id of the change log
(labsite.models.ContentChange), to which a transaction that changes content adds a row, and
adds one more once it has committed: rows are only added, so no change waits for another to
commit (a twenty-second import holds up no admin's save), and a long transaction's row,
which others see only when it commits, is followed by one they see at once.

**Freshness, as measured.** A page is stored under the version it was built at, and a
request reads the version first (one query, on the driver's own cursor for a cache hit), so
old entries are never served again, and age out:
- the worker that made a change serves fresh pages from its next request;
- on SQLite, or with CONTENT_VERSION_PUSH off, every worker reads the version on every hit:
  fresh from the moment the change's after-commit row is added, before the editor's save
  has answered;
- on PostgreSQL every other worker reads it again when the change's notice reaches it
  (`push`): on one machine the notice was already there when the commit returned 181
  times in 200, and the latest came 0.11 ms after. A hit in that window serves the page of
  before the change.

A stored page carries its gzip form and its ETag, made once when it is stored: a visitor
gets the compressed page, or "304 Not Modified" when they already have it.

**One page, one key.** A page is stored under its canonical address: the query its view
declares it reads (`canonical_query`, see core.queries) and the site's host without the
visitor's port, so no visitor can make a page be built and stored again by adding to its
address, varying a value or the port: any other query is sent, permanently, to the
canonical one, and the page is built for the canonical host (its absolute links name no
port a visitor chose). A page is keyed on the path the application resolved (PATH_INFO),
never on what a request header can move: a request whose SCRIPT_NAME is not where SITE_URL
mounts the site is built afresh and not stored.

Editors are never served from the cache (a session cookie bypasses it), nor is the admin,
the account pages, the health check, a page holding a CSRF token, or anything but a plain
200 answer that sets no cookie.

**Outages.** No save depends on the cache: while it does not answer, visitors are served
pages built afresh, and changes are saved as ever; the version they move is in the
database, so once the cache answers again nothing stored before them is served. While the
database does not answer, pages stored under the version last read are still served
(nothing can change meanwhile), and every other request gets the outage page
(labsite.outages).
"""

from labsite.page_cache.keys import STATIC_EXPORT_KEY, canonical_query
from labsite.page_cache.serve import CachedPagesApp, PublicPageCacheMiddleware
from labsite.page_cache.stored import recent_pages
from labsite.page_cache.version import content_changed, content_version, move_version

__all__ = [
    "STATIC_EXPORT_KEY",
    "CachedPagesApp",
    "PublicPageCacheMiddleware",
    "canonical_query",
    "content_changed",
    "content_version",
    "move_version",  # a task queued before the package was split names it here
    "recent_pages",
]
