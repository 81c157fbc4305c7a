"""The import's ledger: every file of the site and every key of every front matter,
configuration and data file, each accounted for as landed (where), named as not imported
(why), a setting of the generator's theme, or a known leftover of its template.

Readers never fill it by hand: the values `front_matter` and the data loaders hand them are
`Tracked` mappings that remember the keys a reader asks for, so a key no reader asked for
is, by construction, listed by file and key as not read."""

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

LANDED, NAMED, SETTING, LEFTOVER, NOT_READ = (
    "landed",
    "named",
    "setting",
    "leftover",
    "not read",
)
# Files whose mapping under `params` holds the site's settings (Hugo's configuration): its
# keys are accounted one level down, as `params.description`.
EXPANDED = {"params"}
CONFIG_STEMS = {"config", "hugo"}
PAGE_SUFFIXES = {".md", ".markdown", ".html", ".rmd"}
DATA_SUFFIXES = {".yml", ".yaml", ".toml", ".json"}
MEDIA_SUFFIXES = {
    ".jpg", ".jpeg", ".png", ".gif", ".svg", ".webp", ".heic", ".bmp", ".ico", ".tif",
    ".tiff", ".pdf", ".mp4", ".webm", ".mov", ".mp3", ".zip", ".pptx", ".ppt", ".docx",
}  # fmt: skip
# Folders and files that are the generator's machinery, not the site's content.
MACHINERY = re.compile(
    r"^(?:_layouts|_includes|_sass|_plugins|layouts|themes|static/(?:css|js|fonts)|"
    r"assets/(?:css|js|fonts|scss|webfonts)|\.github|\.devcontainer|bin|scripts|node_modules|"
    r"resources|archetypes|i18n|markdown_generator|talkmap)/|"
    r"^(?:Gemfile(?:\.lock)?|package(?:-lock)?\.json|netlify\.toml|go\.(?:mod|sum)|"
    r"Dockerfile|docker-compose\.ya?ml|Makefile|LICENSE(?:\.\w+)?|README(?:\.\w+)?|"
    r"CHANGELOG\.md|CONTRIBUTING\.md|CODE_OF_CONDUCT\.md|\.[\w.-]+|_config\.dev\.yml|"
    r"purgecss\.config\.js|robots\.txt|CNAME|theme\.toml)$"
)


class Tracked(dict):
    """A file's values that remember which keys were asked for (get, [], in, items)."""

    def __init__(self, values: Any = (), origins: dict | None = None, fold: bool = False) -> None:
        super().__init__(values)
        self.origins: dict[Any, list[tuple[dict, str]]] = origins or {}
        self.fold = fold  # keys held in lower case, asked for in any case (Hugo's pages)

    def _read(self, key: Any) -> Any:
        if self.fold and isinstance(key, str):
            key = key.lower()
        for entry, path in self.origins.get(key, ()):
            entry[path] = True
        return key

    def __getitem__(self, key: Any) -> Any:
        return super().__getitem__(self._read(key))

    def get(self, key: Any, default: Any = None) -> Any:
        return super().get(self._read(key), default)

    def __contains__(self, key: Any) -> bool:
        return super().__contains__(self._read(key))

    def pop(self, key: Any, *default: Any) -> Any:
        return super().pop(self._read(key), *default)

    def items(self):
        for key in dict.keys(self):
            self._read(key)
        return super().items()

    def values(self):
        for key in dict.keys(self):
            self._read(key)
        return super().values()

    def absorb(self, other: dict) -> None:
        """Take `other`'s keys (a later file's win), with where each came from; its
        `params` merge into ours, as Hugo merges its configuration files."""
        for key in dict.keys(other):
            value = dict.__getitem__(other, key)
            mine = dict.get(self, key)
            origins = other.origins.get(key, []) if isinstance(other, Tracked) else []
            if key in EXPANDED and isinstance(mine, Tracked) and isinstance(value, dict):
                mine.absorb(value)
                self.origins.setdefault(key, []).extend(origins)
            else:
                dict.__setitem__(self, key, value)
                self.origins[key] = list(origins)


def keys_of(values: Any, name: str) -> list[str]:
    """The keys the ledger accounts for in a file's values: its top-level keys, and in a Hugo
    configuration file those under `params` too."""
    if not isinstance(values, dict):
        return []
    found = [str(key) for key in values]
    if Path(name).stem in CONFIG_STEMS:
        for key in EXPANDED:
            if isinstance(values.get(key), dict):
                found += [f"{key}.{sub}" for sub in values[key]]
    return found


@dataclass
class Row:
    file: str
    key: str  # "" for the file itself
    status: str
    why: str


CONFIG = re.compile(r"^(?:_config\.ya?ml|config/.*|(?:config|hugo)\.(?:toml|ya?ml|json))$")
# What a configuration file says that is a fact, not a setting of the build: listed as not
# read when no reader reads it.
CONFIG_FACTS = {
    "contact_note", "footer_text", "address", "phone", "office_hours", "appointment_url",
    "contact_links", "email", "org_name", "copyright", "author", "keywords", "impressum_path",
}  # fmt: skip
# Keys every generator shares that labsite decides for itself or another part imports.
COMMON = {
    "tags": (NAMED, "tags: not imported here (posts, papers, talks and courses take tags)"),
    "categories": (NAMED, "categories: not imported here (a post's categories are its tags)"),
    "keywords": (NAMED, "keywords for search engines: labsite writes its own"),
    "image": (NAMED, "the page's image: images are not imported with the page"),
    "header": (NAMED, "the page's header image: images are not imported with the page"),
    "banner": (NAMED, "the page's banner image: images are not imported with the page"),
    "thumbnail": (NAMED, "the page's thumbnail: images are not imported with the page"),
    "img": (NAMED, "the page's image: images are not imported with the page"),
    "preview": (NAMED, "the page's preview image: images are not imported with the page"),
}


@dataclass
class Ledger:
    known: dict[str, tuple[str, str]] = field(default_factory=dict)  # unread key → account
    fold: bool = False  # Hugo reads a page's keys without regard to case
    files: dict[str, dict[str, bool]] = field(default_factory=dict)  # file → key → read
    rows: list[Row] = field(default_factory=list)

    def track(self, name: str, values: Any) -> Any:
        """`values` read from the file `name`, as a mapping that marks the keys asked for."""
        entry = self.files.setdefault(name, {})
        if not isinstance(values, dict):
            return values
        for key in keys_of(values, name):
            entry.setdefault(key, False)
        if self.fold:
            folded: dict[Any, Any] = {}
            origins: dict[Any, list] = {}
            for key, value in values.items():
                lower = key.lower() if isinstance(key, str) else key
                if lower not in folded:
                    folded[lower], origins[lower] = value, []
                origins[lower].append((entry, str(key)))
            tracked = Tracked(folded, origins, fold=True)
        else:
            tracked = Tracked(values, {key: [(entry, str(key))] for key in values})
        if Path(name).stem in CONFIG_STEMS:
            for key in EXPANDED:
                inner = values.get(key)
                if isinstance(inner, dict):
                    origins = {sub: [(entry, f"{key}.{sub}")] for sub in inner}
                    dict.__setitem__(tracked, key, Tracked(inner, origins))
        return tracked

    def opened(self, name: str) -> None:
        """A file read whole (a BibTeX file, a list), which has no keys of its own."""
        self.files.setdefault(name, {})

    # The account, once the site is read

    def close(self, site: Any, reread: Any) -> None:
        """Every file of the site and every key, accounted for. `reread(path)` gives the
        values of a file no reader opened (None when it holds none)."""
        fates = _fates(site)
        for path in sorted(p for p in site.root.rglob("*") if p.is_file()):
            name = site.name(path)
            if name not in self.files:
                self._unopened(path, name, fates.get(name) or _folder_fate(name, fates), reread)
                continue
            fate = fates.get(name)
            status, why = fate or (LANDED, "read: nothing in it needed a place")
            self.rows.append(Row(name, "", status, why))
            for key, read in self.files[name].items():
                if status == LEFTOVER or read:
                    self.rows.append(Row(name, key, status, why))
                else:
                    self.rows.append(Row(name, key, *self._unread(name, key)))

    def _unread(self, name: str, key: str) -> tuple[str, str]:
        """How a key no reader read is accounted for: a declared setting or a named key of
        the generator's, a setting of the site's build, else not read."""
        last = key.split(".")[-1]
        if CONFIG.match(name):
            if last in CONFIG_FACTS:
                return NOT_READ, "no reader of this generator reads it"
            return SETTING, "a setting of the site's build"
        for candidate in (last, last.lower()):
            if candidate in self.known:
                return self.known[candidate]
            if candidate in COMMON:
                return COMMON[candidate]
        if CONFIG.match(name) and last not in CONFIG_FACTS:
            return SETTING, "a setting of the site's build"
        return NOT_READ, "no reader of this generator reads it"

    def _unopened(self, path: Path, name: str, fate: Any, reread: Any) -> None:
        suffix = path.suffix.lower()
        if fate is not None:
            status, why = fate
        elif MACHINERY.search(name):
            status, why = LEFTOVER, "the generator's own machinery (layouts, styles, scripts)"
        elif suffix in MEDIA_SUFFIXES:
            status, why = NAMED, "a media file no page of the site names"
        else:
            status, why = NOT_READ, "a file no reader of this generator reads"
        self.rows.append(Row(name, "", status, why))
        if suffix not in PAGE_SUFFIXES | DATA_SUFFIXES:
            return
        values = reread(path)
        for key in keys_of(values, name):
            if status == NOT_READ:
                self.rows.append(Row(name, key, *self._unread(name, key)))
            else:
                self.rows.append(Row(name, key, status, why))

    def accounted(self) -> set[tuple[str, str]]:
        return {(row.file, row.key) for row in self.rows if row.key}

    def not_read_lines(self) -> list[str]:
        """The files and keys no reader read, grouped where folders share them: the lines
        of the preview's "not imported"."""
        keys: dict[str, list[str]] = defaultdict(list)
        files: dict[str, list[str]] = defaultdict(list)
        for row in self.rows:
            if row.status == NOT_READ and row.key:
                keys[row.file].append(row.key)
            elif row.status == NOT_READ and not any(
                r.file == row.file and r.key for r in self._by_file().get(row.file, ())
            ):
                files[str(Path(row.file).parent)].append(Path(row.file).name)
        lines = []
        grouped: dict[tuple[str, tuple[str, ...]], list[str]] = defaultdict(list)
        for name, found in keys.items():
            grouped[(_family(name), tuple(found))].append(name)
        for (family, unread), names in grouped.items():
            where = names[0] if len(names) == 1 else f"{family} ({len(names)} files)"
            lines.append(
                f"{where}: {', '.join(unread)} (not read: no reader of this site's "
                "generator reads these keys)"
            )
        for folder, names in files.items():
            shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
            lines.append(
                f"{folder}/: {shown} (not read: no reader of this site's generator "
                "reads these files)"
            )
        return lines

    def known_lines(self) -> list[str]:
        """The keys accounted for by the generator's map, one line per reason."""
        found: dict[str, Counter] = defaultdict(Counter)
        for row in self.rows:
            last = row.key.split(".")[-1]
            declared = {self.known.get(last, ("", ""))[1], COMMON.get(last.lower(), ("", ""))[1]}
            if (
                row.key
                and row.status in (SETTING, NAMED)
                and (row.why in declared or row.why == "a setting of the site's build")
            ):
                found[row.why][row.key.split(".")[-1]] += 1
        lines = []
        for why, keys in found.items():
            shown = sorted(keys)
            listed = ", ".join(shown[:12]) + (
                f" and {len(shown) - 12} more" if len(shown) > 12 else ""
            )
            lines.append(f"keys {listed}: {why}")
        return lines

    def _by_file(self) -> dict[str, list[Row]]:
        if not hasattr(self, "_index"):
            index: dict[str, list[Row]] = defaultdict(list)
            for row in self.rows:
                index[row.file].append(row)
            self._index = index
        return self._index

    def counts(self) -> Counter:
        return Counter(row.status for row in self.rows if row.key)


def _family(name: str) -> str:
    """Files of one kind ("content/authors/*/_index.md", "_people/*.md")."""
    path = Path(name)
    if path.stem in ("index", "_index") and len(path.parts) > 2:
        return f"{path.parent.parent.as_posix()}/*/{path.name}"
    return f"{path.parent.as_posix()}/*{path.suffix}"


def _folder_fate(name: str, fates: dict[str, tuple[str, str]]) -> tuple[str, str] | None:
    """What became of the folder holding `name`, where a reader named the folder whole."""
    parent = Path(name).parent
    while parent.parts:
        if parent.as_posix() in fates:
            return fates[parent.as_posix()]
        parent = parent.parent
    return None


def _fates(site: Any) -> dict[str, tuple[str, str]]:
    """For each file the site's readers named or took something from, what became of it."""
    fates: dict[str, tuple[str, str]] = {}
    came: dict[str, Counter] = defaultdict(Counter)
    for kind, items in (
        ("person", site.people),
        ("news item", site.news),
        ("project", site.projects),
        ("talk", site.talks),
        ("post", site.posts),
        ("page", site.pages),
        ("course", site.courses),
    ):
        for item in items:
            came[item.source][kind] += 1
    for record in site.records:
        came[record.label.partition(",")[0].split(" (")[0]]["publication"] += 1
    for person in site.people:
        for source in getattr(person, "sources", ()):
            came[source]["person"] += 0
    for name, where in site.landings.items():
        fates[name] = (LANDED, f"landed in {where}")
    for name, kinds in came.items():
        if name in fates:
            continue
        what = ", ".join(f"{n} {kind}" if n != 1 else kind for kind, n in kinds.items() if n)
        fates[name] = (LANDED, f"landed as {what or 'part of a person'}")
    for line, status in _lines(site):
        name = line.split(": ", 1)[0].split(", line ")[0]
        # a leftover of a file something landed from is a part of it (the template's tag
        # on a paper of the lab's): the file stays landed
        if name not in fates or (status == LEFTOVER and fates[name][0] != LANDED):
            fates[name] = (status, line.split(": ", 1)[1] if ": " in line else line)
    return fates


def _lines(site: Any) -> Iterable[tuple[str, str]]:
    for line in site.leftovers:
        yield line, LEFTOVER
    for line in site.no_home:
        yield line, NAMED
    for line in site.skipped:
        yield line, NAMED
    for line in site.organisations:
        yield line, LANDED
