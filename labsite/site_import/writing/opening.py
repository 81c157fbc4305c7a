"""A site's folder, or a ZIP file of one, read into a `Site` by its generator's reader."""

import shutil
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from labsite.site_import import alfolio, hugo, maps
from labsite.site_import.site import Site, SiteProblem, values_of

MAX_ZIP_MEMBERS = 5000
MAX_ZIP_BYTES = 500 * 1024 * 1024  # unpacked


@contextmanager
def open_site(path: Path | str, owner_name: str = "") -> Iterator[Site]:
    """The site in the folder (or ZIP file) `path`, read; SiteProblem when it cannot be."""
    path = Path(path)
    if not path.exists():
        raise SiteProblem(f"{path} does not exist.")
    if path.is_file():
        with tempfile.TemporaryDirectory(prefix="labsite-site-") as folder:
            _unzip(path, Path(folder))
            yield _read(Path(folder), owner_name)
        return
    yield _read(path, owner_name)


def _unzip(path: Path, folder: Path) -> None:
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError):
        raise SiteProblem(f"{path.name} is neither a folder nor a ZIP file of one.") from None
    with archive:
        members = archive.infolist()
        if len(members) > MAX_ZIP_MEMBERS:
            raise SiteProblem(f"{path.name} holds more than {MAX_ZIP_MEMBERS:,} files.")
        if sum(m.file_size for m in members) > MAX_ZIP_BYTES:
            raise SiteProblem(f"{path.name} unpacks to more than {MAX_ZIP_BYTES // 2**20} MB.")
        for member in members:
            name = PurePosixPath(member.filename)
            if name.is_absolute() or ".." in name.parts or "\\" in member.filename:
                raise SiteProblem(f"{path.name}: “{member.filename[:200]}” leads out of the site.")
        try:
            archive.extractall(folder)
        except (zipfile.BadZipFile, OSError, EOFError) as error:
            raise SiteProblem(f"{path.name} is damaged ({error}).") from None
    entries = [p for p in folder.iterdir() if not p.name.startswith(("__MACOSX", "."))]
    if len(entries) == 1 and entries[0].is_dir():  # a ZIP of the folder, not of its files
        shutil.move(str(entries[0]), folder / ".site")
        for item in (folder / ".site").iterdir():
            shutil.move(str(item), folder / item.name)


def _read(root: Path, owner_name: str) -> Site:
    sitemap = maps.site_map(root)
    if sitemap is not None:
        site = Site(generator=sitemap.generator, root=root)
        site.ledger.known = sitemap.keys
        maps.read(site, sitemap, owner_name)
        return _closed(site)
    if alfolio.is_site(root):
        site = Site(generator=alfolio.GENERATOR, root=root)
        site.ledger.known = alfolio.KEYS
        alfolio.read(site, owner_name)
        return _closed(site)
    hugo_root = hugo.site_root(root)
    if hugo_root is not None:
        site = Site(generator=hugo.GENERATOR, root=hugo_root)
        site.ledger.known, site.ledger.fold = hugo.KEYS, True
        hugo.read(site, owner_name)
        return _closed(site)
    raise SiteProblem(
        f"{root.name or root} is neither an al-folio site (no _pages, _bibliography, _news or "
        "_projects folder) nor a Hugo Blox site (no config/_default or hugo.yaml beside a "
        "content folder)."
    )


def _closed(site: Site) -> Site:
    """The site with its ledger closed: every file and key accounted for."""
    site.ledger.close(site, lambda path: values_of(site, path))
    return site
