"""The public site as a folder of files any plain web server (or GitHub Pages, or a
university web space) serves: what `export_static` writes.

Every page is rendered by the site itself, as a visitor's request would, and the folder is
the closure of its links: the crawl starts at the home page, the sitemap, robots.txt and the
feeds, and follows every link and image to the site's own pages, exports, static files and
uploads. So the files are the live pages, except where a static copy must differ:

- a link with a query (a profile's "?kind=journal" tab, "?page=2") leads to a file of its
  own: `/people/teng-ma/?kind=journal` is written as `/people/teng-ma/_/kind=journal/`;
- a feed (an address ending in "/" that is not HTML) is written as `feed.xml` beside it;
- the filter forms, which need a server, give way to a line saying so (`static_export` in
  the templates' context);
- with `--base-url https://example.org/lab/`, absolute addresses name that host and every
  link is under "/lab/" (the pages are rendered with that script prefix, as Django would
  serve them there).

- a feed's links to itself and other feeds lead to their `feed.xml` files;
- uploads are copied into `media/` and linked there, from object storage too, so the copy
  holds every photo and needs nothing of the live site;
- the search page (one per language; the header's box leads there) searches an index that
  Pagefind builds from the written pages into `pagefind/`, in the browser: Pagefind splits
  Chinese into words, and a re-run writes only the index files that changed.

A file whose bytes have not changed is not rewritten, and a file of an earlier export that
no page links to any more is removed, so re-running after an edit touches what changed and
a sync to a host moves only that. The folder's marker file records what the copy was built
from (the content version, the code, the base address, the day); a re-run when none of them
has changed does nothing at all.
"""

import hashlib
import html
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import parse_qsl, quote, unquote, urljoin, urlsplit

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import get_script_prefix, reverse, set_script_prefix
from django.utils import timezone, translation
from django.utils.encoding import filepath_to_uri
from django.utils.functional import empty

from core import content
from core.storage import local_folder
from labsite.models import SearchDocument
from labsite.page_cache import STATIC_EXPORT_KEY, content_version

MARKER = ".labsite-static"  # marks a folder as an export this command may prune
QUERY_DIR = "_"
START = ["/", "/sitemap.xml", "/robots.txt", "/news/feed/", "/publications/feed/"]
PAGEFIND_DIR = "pagefind"  # the copy's search index (Pagefind), built after the pages
_LINK = re.compile(r'\b(href|src)="([^"]*)"')
_LOC = re.compile(r"<loc>([^<]+)</loc>")
_SITEMAP = re.compile(r"/sitemap(-[-\w]+)?\.xml")  # labsite/sitemaps.py
# an image's renditions (`<img srcset>`, `<source srcset>`): "address 390w, address 640w"
_SRCSET = re.compile(r'\bsrcset="([^"]*)"')
_FEED_TYPES = ("application/rss+xml", "application/atom+xml", "application/xml", "text/xml")


class StaticExportError(Exception):
    pass


@dataclass
class Result:
    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)  # "page → link" that led nowhere
    kept: int = 0  # files left as they were, unread, as nothing has changed since they were

    @property
    def files(self) -> int:
        return len(self.written) + len(self.unchanged) + self.kept


def file_path(path: str, query: str = "", content_type: str = "text/html") -> str:
    """The file (relative to the folder) that serves the site path `path` with `query`."""
    if query:
        pairs = "/".join(f"{k}={v}" for k, v in parse_qsl(query, keep_blank_values=True))
        directory, _, name = path.rpartition("/")
        path = f"{directory}/{QUERY_DIR}/{pairs}/{name}"
    if path.endswith("/"):
        if content_type.startswith(_FEED_TYPES):
            return path.strip("/") + ".xml" if path != "/" else "index.xml"
        return f"{path}index.html".lstrip("/")
    return path.lstrip("/")


def static_link(path: str, query: str, prefix: str, content_type: str = "text/html") -> str:
    """The address, under `prefix`, of the file `file_path` gives."""
    name = file_path(path, query, content_type)
    if name.endswith("index.html"):
        name = name[: -len("index.html")]
    return prefix + "/" + quote(name, safe="/=-_.~")


class _Site:
    """The live site, rendered in this process for the address `base_url`."""

    def __init__(self, base_url: str) -> None:
        parts = urlsplit(base_url or "http://localhost/")
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise StaticExportError(f"--base-url must be an http(s) address, not “{base_url}”.")
        self.host = parts.netloc
        self.prefix = parts.path.rstrip("/")
        self.client = Client(HTTP_HOST=self.host)
        self.secure = parts.scheme == "https"

    def get(self, path: str, query: str = ""):
        marked: dict[str, Any] = {STATIC_EXPORT_KEY: True}  # the request is the copy's
        return self.client.get(
            path,
            query_params=dict(parse_qsl(query, keep_blank_values=True)),
            secure=self.secure,
            SCRIPT_NAME=self.prefix,
            **marked,
        )


def export_static(
    target: Path, base_url: str = "", say=lambda message: None, *, force: bool = False
) -> Result:
    """Write the public site into `target`; see the module's docstring. With `force`, the
    pages are rendered again even when nothing has changed since the last export."""
    target = Path(target)
    marker = target / MARKER
    if target.exists() and any(target.iterdir()) and not marker.exists():
        raise StaticExportError(
            f"{target} holds files of something else; export into an empty or new folder."
        )
    built_from = _built_from(base_url)
    last = _read_marker(marker)
    if not force and last.get("built from") == built_from:
        say("nothing has changed since the last export")
        return Result(kept=last.get("files", 0))
    target.mkdir(parents=True, exist_ok=True)
    call_command("collectstatic", interactive=False, verbosity=0)
    site = _Site(base_url)
    overrides = {
        "ALLOWED_HOSTS": [site.host.split(":")[0]],
        "SECURE_SSL_REDIRECT": False,
        # Site-relative STATIC_URL and MEDIA_URL follow the script prefix (set again, so
        # that Django adds the prefix it caches on first use). Uploads are linked in the
        # copy's media/ folder, wherever they are stored.
        "STATIC_URL": settings.STATIC_URL.removeprefix(get_script_prefix()),
        "MEDIA_URL": "media/",
    }
    previous_prefix = get_script_prefix()
    result = Result()
    # Each page sets the language of its address; the caller's is put back afterwards.
    with (
        override_settings(**overrides),
        translation.override(translation.get_language()),
        _uploads_linked_in_copy(),
    ):
        try:
            # Django's test client, unlike a WSGI server, does not set the prefix reverse()
            # uses. It is put back before the settings are: leaving override_settings makes
            # Django recompute (and cache) STATIC_URL with the prefix of that moment.
            set_script_prefix(site.prefix + "/")
            _crawl(site, target, result, say)
        finally:
            set_script_prefix(previous_prefix)
    kept = {*result.written, *result.unchanged, MARKER}
    index = f"{PAGEFIND_DIR}/"  # kept here; _index_for_search prunes its own files
    # A page that failed leaves its links unfollowed: nothing is pruned on such a run.
    for path in sorted(target.rglob("*"), reverse=True) if not result.broken else []:
        name = path.relative_to(target).as_posix()
        if path.is_file() and name not in kept and not name.startswith(index):
            path.unlink()
            result.removed.append(name)
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    if not result.broken:
        _index_for_search(target, result)
    record: dict[str, object] = {"files": result.files}
    if not result.broken:  # a run with faults is run again in full
        record["built from"] = built_from
    marker.write_text(
        "Written by labsite's export_static; re-run it to update.\n" + json.dumps(record) + "\n"
    )
    return result


def _index_for_search(target: Path, result: Result) -> None:
    """Pagefind's index of the written pages (those whose <main> says data-pagefind-body),
    built in a scratch folder beside them and moved into PAGEFIND_DIR file by file:
    unchanged index files are left as they are, and files of an earlier index are
    removed."""
    index = target / PAGEFIND_DIR
    with tempfile.TemporaryDirectory(dir=target, prefix=".pagefind-") as scratch:
        command = [sys.executable, "-m", "pagefind", "--site", str(target)]
        command += ["--output-path", scratch, "--silent"]
        try:
            subprocess.run(command, check=True, capture_output=True, timeout=600)
        except (OSError, subprocess.SubprocessError) as error:
            result.broken.append(f"the search index: {error}")
            return
        built = set()
        for path in sorted(Path(scratch).rglob("*")):
            if not path.is_file():
                continue
            relative = path.relative_to(scratch)  # Pagefind's own names, under the scratch
            name = f"{PAGEFIND_DIR}/{relative.as_posix()}"
            built.add(name)
            placed = index / relative
            if placed.is_file() and placed.read_bytes() == path.read_bytes():
                result.unchanged.append(name)
                continue
            placed.parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, placed)  # the same file system: a rename, not a copy
            result.written.append(name)
    for path in sorted(index.rglob("*"), reverse=True):
        name = path.relative_to(target).as_posix()
        if path.is_file() and name not in built:
            path.unlink()
            result.removed.append(name)
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def _built_from(base_url: str) -> dict[str, str | int]:
    """What the copy's bytes depend on: the content version, the code (every file of the
    project's apps, templates, static files and translations, by size and time), the base
    address, and the day (pages say which talks are upcoming)."""
    root = Path(settings.BASE_DIR)
    folders = [Path(config.path) for config in content.project_apps()]
    folders += [root / "templates", root / "static", root / "locale"]
    code = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                stat = path.stat()
                code.update(f"{path.relative_to(root)}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return {
        "content version": content_version(),
        "code": code.hexdigest(),
        "base url": base_url,
        "day": timezone.localdate().isoformat(),
    }


def _read_marker(marker: Path) -> dict:
    try:
        record = json.loads(marker.read_text().split("\n", 1)[1])
    except (OSError, IndexError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


@contextmanager
def _uploads_linked_in_copy():
    """Uploads stored off this machine (object storage) are linked at MEDIA_URL, as local
    ones are, while the copy is made: the copy holds them and links them there."""
    lazy: Any = default_storage  # a LazyObject: the stubs name none of its own parts
    if lazy._wrapped is empty:
        lazy._setup()
    storage = lazy._wrapped
    if local_folder(storage) is not None:
        yield
        return
    storage.url = lambda name: settings.MEDIA_URL + filepath_to_uri(name)
    try:
        yield
    finally:
        del storage.url


def _crawl(site: _Site, target: Path, result: Result, say) -> None:
    # (URL prefix, storage) of files served as they are; the prefixes include the site's.
    files = [(settings.STATIC_URL, staticfiles_storage), (settings.MEDIA_URL, default_storage)]
    searches = []  # the search page in each language: the header's box leads there
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            searches.append(reverse("search").removeprefix(site.prefix))
    # the pages the live search finds (labsite/search.py): the copy's index holds the same
    searchable = {
        url.removeprefix(site.prefix)
        for urls in SearchDocument.objects.values_list("urls", flat=True)
        for url in urls.values()
    }
    queue = deque((path, "", "start") for path in [*START, *searches])
    seen = {(path, "") for path in [*START, *searches]}
    while queue:
        path, query, source = queue.popleft()
        full = site.prefix + path
        stored = [(p, s) for p, s in files if full.startswith(p)]
        if stored:  # a static file or an upload, copied as it is
            prefix, storage = stored[0]
            data, name = _read(storage, unquote(full[len(prefix) :])), unquote(path)
        else:
            response = site.get(path, query)
            if response.status_code != 200:
                result.broken.append(f"{source} → {path}{'?' + query if query else ''}")
                continue
            data = b"".join(response) if response.streaming else response.content
            content_type = response.get("Content-Type", "")
            name = file_path(path, query, content_type)
            links: list[str] = []
            if content_type.startswith("text/html"):
                text, links = _rewrite(data.decode(), site, path, query)
                if query or path not in searchable:  # search finds each page once, as live
                    text = text.replace(" data-pagefind-body", "", 1)
                data = text.encode()
            elif _SITEMAP.fullmatch(path):  # the index, and each sitemap it names
                text, links = _sitemap_pages_linked(data.decode(), site)
                data = text.encode()
            elif content_type.startswith(_FEED_TYPES):
                data = _feeds_linked(data.decode(), site).encode()
            for link in links:
                parts = urlsplit(link)
                if parts.netloc and parts.netloc != site.host:
                    continue
                if not parts.path.startswith(site.prefix + "/"):
                    continue
                local = parts.path[len(site.prefix) :]
                if local.startswith(("/admin/", "/accounts/", f"/{PAGEFIND_DIR}/")):
                    continue
                key = (local, parts.query)
                if key not in seen:
                    seen.add(key)
                    queue.append((local, parts.query, path))
        if data is None:
            result.broken.append(f"{source} → {path}")
            continue
        name = name.lstrip("/")
        _write(target, name, data, result)
    say(f"{result.files:,} files, {len(result.written):,} of them written")


def _read(storage, name: str) -> bytes | None:
    try:
        with storage.open(name, "rb") as file:
            return bytes(file.read())
    except (FileNotFoundError, OSError, ValueError):
        return None


def _write(target: Path, name: str, data: bytes, result: Result) -> None:
    path = target / PurePosixPath(name)
    if not path.resolve().is_relative_to(target.resolve()):
        raise StaticExportError(f"The address {name} would be written outside {target}.")
    if path.is_file() and path.read_bytes() == data:
        result.unchanged.append(name)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    result.written.append(name)


def _sitemap_pages_linked(sitemap: str, site: _Site) -> tuple[str, list[str]]:
    """The sitemap, with each later page of a sitemap the index names (?p=2) pointed at
    its file, as a plain server ignores the query; and every address it lists."""
    links = []

    def replace(match: re.Match) -> str:
        address = html.unescape(match[1])
        links.append(address)
        parts = urlsplit(address)
        if not parts.query or parts.netloc != site.host:
            return match[0]
        local = parts.path[len(site.prefix) :]
        file = static_link(local, parts.query, site.prefix, "application/xml")
        return f"<loc>{html.escape(f'{parts.scheme}://{parts.netloc}{file}')}</loc>"

    return _LOC.sub(replace, sitemap), links


def _feeds_linked(feed: str, site: _Site) -> str:
    """A feed with its links to the site's feeds (its own self-link) leading to their
    files, as absolute addresses, which feeds need."""
    origin = f"{'https' if site.secure else 'http'}://{site.host}"

    def replace(match: re.Match) -> str:
        parts = urlsplit(html.unescape(match[2]))
        local = parts.netloc == site.host and parts.path.startswith(site.prefix + "/")
        if not (local and parts.path.endswith("/feed/")):
            return match[0]
        path = parts.path[len(site.prefix) :]
        address = origin + static_link(path, "", site.prefix, _FEED_TYPES[0])
        return f'{match[1]}="{html.escape(address)}"'

    return _LINK.sub(replace, feed)


def _rewrite(page: str, site: _Site, path: str, query: str) -> tuple[str, list[str]]:
    """The page with each link to a page of the site with a query (and each link to a
    feed) pointed at its file, and every link the page holds, resolved."""
    here = f"https://{site.host}{site.prefix}{path}{'?' + query if query else ''}"
    links = []

    def replace(match: re.Match) -> str:
        attribute, value = match[1], html.unescape(match[2])
        resolved = urljoin(here, value)
        links.append(resolved)
        parts = urlsplit(resolved)
        local = parts.netloc == site.host and parts.path.startswith(site.prefix + "/")
        if not local or not (parts.query or parts.path.endswith("/feed/")):
            return match[0]
        target_path = parts.path[len(site.prefix) :]
        content_type = _FEED_TYPES[0] if target_path.endswith("/feed/") else "text/html"
        address = static_link(target_path, parts.query, site.prefix, content_type)
        if parts.fragment:
            address += "#" + parts.fragment
        if urlsplit(value).netloc:  # an absolute address (a canonical link) stays absolute
            address = f"{parts.scheme}://{parts.netloc}{address}"
        return f'{attribute}="{html.escape(address)}"'

    page = _LINK.sub(replace, page)
    for match in _SRCSET.finditer(page):  # renditions are files: no address to rewrite
        for candidate in html.unescape(match[1]).split(","):
            if candidate.strip():
                links.append(urljoin(here, candidate.split()[0]))
    return page, links
