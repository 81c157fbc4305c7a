"""What a static site says, read into plain values (`Site`): the shape both readers fill and
the planner reads; and what reading a site's files shares: front matter, Markdown as the
generators' authors write it, dates, links and the files a page names."""

import datetime
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from core.partial_dates import PartialDate
from core.weblinks import is_web_url
from publications.importing import Record

MAX_TEXT_BYTES = 2 * 1024 * 1024  # a front matter page or data file read whole


class SiteProblem(Exception):
    """The site cannot be imported; the message says why, naming the file."""


@dataclass
class SitePerson:
    key: str  # how the site's own files name the person: "me", "admin", a folder name
    name: str
    source: str  # the file the person was read from, for messages
    is_owner: bool = False
    native_name: str = ""
    name_variants: list[str] = field(default_factory=list)  # as publications print them
    role: str = ""  # a MemberRole value when the site says it, else ""
    title: str = ""
    affiliation: str = ""
    bio: str = ""
    email: str = ""
    orcid: str = ""
    interests: list[str] = field(default_factory=list)
    links: list[tuple[str, str, str]] = field(default_factory=list)  # (kind, label, url)
    education: list[dict[str, Any]] = field(default_factory=list)
    experience: list[dict[str, Any]] = field(default_factory=list)
    awards: list[dict[str, Any]] = field(default_factory=list)
    photo: Path | None = None


@dataclass
class SiteNews:
    date: PartialDate
    text: str
    source: str


@dataclass
class SiteProject:
    title: str
    description: str
    source: str
    url: str = ""
    tags: list[str] = field(default_factory=list)


@dataclass
class SiteTalk:
    title: str
    date: PartialDate
    source: str
    event: str = ""
    event_url: str = ""
    city: str = ""
    country: str = ""
    slides_url: str = ""
    video_url: str = ""
    description: str = ""
    speakers: list[str] = field(default_factory=list)  # person keys or printed names


@dataclass
class Site:
    generator: str  # "al-folio" or "Hugo Blox"
    root: Path
    people: list[SitePerson] = field(default_factory=list)
    news: list[SiteNews] = field(default_factory=list)
    projects: list[SiteProject] = field(default_factory=list)
    talks: list[SiteTalk] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)  # publications, as the importer reads
    no_home: list[str] = field(default_factory=list)  # what the site says that has no place
    problems: list[str] = field(default_factory=list)

    @property
    def owner(self) -> SitePerson | None:
        return next((p for p in self.people if p.is_owner), self.people[0] if self.people else None)

    def name(self, path: Path) -> str:
        """`path` as the site's authors know it: relative to its folder."""
        return path.relative_to(self.root).as_posix()


# Reading files


def read_text(site: Site, path: Path) -> str:
    if path.stat().st_size > MAX_TEXT_BYTES:
        raise SiteProblem(f"{site.name(path)} is larger than {MAX_TEXT_BYTES // 2**20} MB.")
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise SiteProblem(f"{site.name(path)} is not UTF-8 text.") from None


def load_yaml(site: Site, path: Path) -> Any:
    return _yaml(site.name(path), read_text(site, path))


def _yaml(name: str, text: str) -> Any:
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark else ""
        raise SiteProblem(f"{name} is not valid YAML{where}.") from None


def front_matter(site: Site, path: Path) -> tuple[dict[str, Any], str]:
    """A page's front matter (YAML between "---" lines, or TOML between "+++" lines) and its
    body."""
    text = read_text(site, path)
    name = site.name(path)
    for fence, parse in (("---", _yaml), ("+++", _toml)):
        if text.startswith(fence):
            head, found, body = text[len(fence) :].partition(f"\n{fence}")
            if not found:
                raise SiteProblem(f"{name}: its front matter has no closing “{fence}”.")
            values = parse(name, head) or {}
            if not isinstance(values, dict):
                raise SiteProblem(f"{name}: its front matter is not a set of fields.")
            return values, body.partition("\n")[2]
    return {}, text


def _toml(name: str, text: str) -> Any:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SiteProblem(f"{name} is not valid TOML ({error}).") from None


def inside(site: Site, reference: str, *folders: str) -> Path | None:
    """The file a page names ("prof_pic.jpg", "/assets/img/12.jpg", "featured.png"), looked
    for as given and under each of `folders`; None when it is not there. A name that leads
    out of the site's folder is a problem, however it is spelled."""
    reference = reference.strip()
    if not reference or is_web_url(reference) or reference.startswith("data:"):
        return None
    root = site.root.resolve()
    for folder in ("", *folders):
        path = (site.root / folder / reference.lstrip("/")).resolve()
        if not path.is_relative_to(root):
            raise SiteProblem(f"“{reference[:200]}” leads out of the site's folder.")
        if path.is_file():
            return path
    return None


# Text


_LIQUID_COMMENT = re.compile(r"{%-?\s*comment\s*-?%}.*?{%-?\s*endcomment\s*-?%}", re.S)
_LIQUID = re.compile(r"{%-?.*?-?%}|{{-?.*?-?}}", re.S)
_SHORTCODE = re.compile(r"{{[<%]\s*/?\s*[\w.-]+[^}]*?[>%]}}", re.S)
_KRAMDOWN = re.compile(r"{:[^}\n]*}")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_HIDDEN = re.compile(
    r"<(div|span|p)\b[^>]*\b(class=\"[^\"]*\bd-none\b[^\"]*\"|hidden\b|aria-hidden=\"true\")"
    r"[^>]*>.*?</\1>",
    re.S,
)
_BLANK_LINES = re.compile(r"\n{3,}")


def clean_markdown(text: str) -> str:
    """Markdown as the site's readers saw it: Liquid tags and output, Hugo shortcodes,
    kramdown attribute lists, HTML comments (`<!--more-->`) and hidden blocks taken out
    (what a shortcode wraps stays); the generators' own markup means nothing here."""
    text = _LIQUID_COMMENT.sub("", text or "")
    text = _HIDDEN.sub("", text)
    text = _COMMENT.sub("", text)
    text = _SHORTCODE.sub("", text)
    text = _LIQUID.sub("", text)
    text = _KRAMDOWN.sub("", text)
    return _BLANK_LINES.sub("\n\n", text).strip()


def plain(text: Any) -> str:
    """One line of text from a field that may hold Markdown emphasis or HTML tags."""
    text = re.sub(r"<[^>]+>", "", str(text or ""))
    text = re.sub(r"(\*\*|__|\*|_)(.+?)\1", r"\2", text)
    return " ".join(text.split())


def date_of(value: Any) -> PartialDate | None:
    """A date as front matter and data files write it: a YAML date or datetime, "2015-10-22
    15:59:00-0400", "2017-01-01T00:00:00Z", "2020-01", 1900; None for what says no date
    ("Present", "", a date that does not exist)."""
    if isinstance(value, datetime.datetime):
        return PartialDate.from_date(value.date())
    if isinstance(value, datetime.date):
        return PartialDate.from_date(value)
    text = str(value or "").strip()
    if match := re.match(r"(\d{4})-(\d{2})-(\d{2})(?:[T ]|$)", text):
        text = "-".join(match.groups())
    try:
        return PartialDate.parse(text) if text else None
    except ValueError:
        return None


def web_url(value: Any) -> str:
    text = str(value or "").strip()
    return text if is_web_url(text) else ""


# Links: what the generators call a profile elsewhere, and where labsite keeps it.

LINK_KINDS = {
    "scholar": ("scholar", "Google Scholar"),
    "google-scholar": ("scholar", "Google Scholar"),
    "github": ("github", "GitHub"),
    "linkedin": ("linkedin", "LinkedIn"),
    "dblp": ("dblp", "DBLP"),
    "x": ("x", "X"),
    "twitter": ("x", "X"),
    "homepage": ("homepage", "Homepage"),
    "website": ("homepage", "Homepage"),
}


def link_kind(hint: str, url: str) -> tuple[str, str]:
    """(Link kind, label) for a link named `hint` ("brands/github", "scholar_userid") or, if
    the hint says nothing, by its host."""
    words = re.split(r"[/_\-\s]+", hint.lower())
    for word in (*words, "-".join(words[-2:])):
        if word in LINK_KINDS:
            return LINK_KINDS[word]
    host = re.sub(r"^https?://(www\.)?", "", url.lower()).split("/")[0]
    for needle, kind in (
        ("scholar.google", "scholar"),
        ("github.com", "github"),
        ("linkedin.com", "linkedin"),
        ("dblp.", "dblp"),
        ("twitter.com", "x"),
        ("x.com", "x"),
    ):
        if host.startswith(needle) or host == needle:
            return LINK_KINDS[kind]
    return "other", hint.rpartition("/")[2].replace("-", " ").replace("_", " ").strip().title()


ORCID_URL = re.compile(r"^https?://(?:www\.)?orcid\.org/(\d{4}-\d{4}-\d{4}-\d{3}[\dX])/?$")


def add_link(person: SitePerson, hint: str, url: str) -> bool:
    """Keep a link of the person's: mailto: as their e-mail, an ORCID page as their ORCID,
    any other http(s) address as a link. False when it is neither."""
    url = str(url or "").strip()
    if url.startswith("mailto:"):
        person.email = person.email or url[len("mailto:") :]
        return True
    if match := ORCID_URL.match(url):
        person.orcid = person.orcid or match[1]
        return True
    if not is_web_url(url):
        return False
    if url not in [link[2] for link in person.links]:
        kind, label = link_kind(hint, url)
        person.links.append((kind, label if kind == "other" else "", url))
    return True
