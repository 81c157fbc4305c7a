"""What a static site says, read into plain values (`Site`): the shape both readers fill and
the planner reads; and what reading a site's files shares: front matter, Markdown as the
generators' authors write it, dates, links and the files a page names."""

import datetime
import functools
import hashlib
import html
import json
import re
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from core.partial_dates import PartialDate
from core.weblinks import is_web_url
from labsite.site_import.ledger import Ledger
from publications.importing import ImportProblem, Record, read_bibtex

# libyaml's loader where PyYAML was built with it: the same YAML, read several times faster
FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_TEXT_BYTES = 2 * 1024 * 1024  # a front matter page or data file read whole
UNEXPECTED = "its shape is not one this reader knows"
# An account that is the lab itself, not a person: its name says so.
ORGANISATION = re.compile(
    r"\b(?:lab|laboratory|group|team|center|centre|institute|department|society|"
    r"consortium|initiative|admin|webmaster)\b|实验室|课题组|研究组|研究所|中心|团队",
    re.I,
)


class SiteProblem(Exception):
    """The site cannot be imported at all: a security refusal (a path leaving its folder, an
    oversized file or archive) or a folder that is no site; the message names the file."""


class Unreadable(Exception):
    """One file or one item of the site cannot be read: it is skipped and named (file, line,
    why) and everything else comes in."""

    def __init__(self, where: str, why: str, line: int | None = None) -> None:
        super().__init__(f"{where}{f', line {line}' if line else ''}: {why}")


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
    groups: list[str] = field(default_factory=list)  # a lab site's groups, as it writes them
    member_since: PartialDate | None = None
    member_until: PartialDate | None = None
    alumni: bool = False  # the site says the person has left (al-folio's `ex_member`)


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
    image: str = ""  # its featured image, as the page names it


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
    tags: list[str] = field(default_factory=list)
    image: str = ""


@dataclass
class SitePost:
    title: str
    date: PartialDate
    body: str
    source: str
    summary: str = ""
    authors: list[str] = field(default_factory=list)  # person keys or printed names
    tags: list[str] = field(default_factory=list)
    url: str = ""  # where the post really is, when the site only links to it
    published: bool = True  # False for a draft (Hugo's `draft: true`, Jekyll's _drafts)
    title_zh: str = ""  # the post in Chinese: its translation, or the post itself when the
    summary_zh: str = ""  # site wrote it in Chinese only (then `title` is "")
    body_zh: str = ""
    source_zh: str = ""  # the file of the Chinese, where it is another
    image: str = ""


@dataclass
class SitePage:
    title: str
    body: str
    source: str
    in_menu: bool = True
    order: int | None = None
    address: str = ""  # where the site kept it ("/contact_us/"), kept when labsite can


@dataclass
class SiteCourse:
    title: str
    source: str
    institution: str = ""
    role: str = ""
    start: PartialDate | None = None
    end: PartialDate | None = None
    description: str = ""
    tags: list[str] = field(default_factory=list)
    image: str = ""


@dataclass
class Site:
    generator: str  # "al-folio" or "Hugo Blox"
    root: Path
    title: str = ""  # the site's own name, its one-line description, and its about text
    tagline: str = ""
    title_zh: str = ""  # the same in Chinese, where the site is in Chinese too
    tagline_zh: str = ""
    about: str = ""
    about_source: str = ""  # the file the about text was read from
    people: list[SitePerson] = field(default_factory=list)
    news: list[SiteNews] = field(default_factory=list)
    projects: list[SiteProject] = field(default_factory=list)
    talks: list[SiteTalk] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)  # publications, as the importer reads
    # a publication's featured image, as its page names it: id(record) → (image, page)
    paper_images: dict[int, tuple[str, str]] = field(default_factory=dict)
    # The lab's own pages, posts and courses.
    pages: list[SitePage] = field(default_factory=list)
    posts: list[SitePost] = field(default_factory=list)
    courses: list[SiteCourse] = field(default_factory=list)
    organisations: list[str] = field(default_factory=list)  # accounts of the lab, not people
    leftovers: list[str] = field(default_factory=list)  # the template's samples, left out
    no_home: list[str] = field(default_factory=list)  # what the site says that has no place
    skipped: list[str] = field(default_factory=list)  # what cannot be read: file, line, why
    ledger: Ledger = field(default_factory=Ledger)  # every file and key, accounted for
    landings: dict[str, str] = field(default_factory=dict)  # file → where it landed

    def lands(self, path: Path | str, where: str) -> None:
        """Say where a file's values landed, for the ledger (a file whose items are people,
        papers, news… is known by their `source` already)."""
        name = path if isinstance(path, str) else self.name(path)
        self.landings.setdefault(name, where)

    @property
    def owner(self) -> SitePerson | None:
        return next((p for p in self.people if p.is_owner), self.people[0] if self.people else None)

    def name(self, path: Path) -> str:
        """`path` as the site's authors know it: relative to its folder."""
        return path.relative_to(self.root).as_posix()

    def skip(self, where: str, why: str) -> None:
        self.skipped.append(f"{where}: {why}")

    def is_template(self, path: Path) -> bool:
        """Whether `path` is, byte for byte, a file of the generator's template (any version):
        a sample the site's owner never replaced."""
        return git_blob_id(path.read_bytes()) in _template_files()

    def own_post_body(self, name: str, title: str, body: str) -> str | None:
        """The body of a post the lab wrote, or None for one of the generator's sample posts,
        whatever its front matter says (a site that re-saved the sample with its own quoting
        or authors): left out when its title is a sample's, brought in with its title alone
        when only its text is (a lab that gave the sample its own title). Either is named."""
        if title_fingerprint(title) in _template_posts():
            self.leftovers.append(f"{name}: the template's sample post, re-saved")
            return None
        fingerprint = text_fingerprint(body)
        if fingerprint and fingerprint in _template_posts():
            self.leftovers.append(f"{name}: its text, the template's sample's (the title comes in)")
            return ""
        return body

    def leftover(self, path: Path, what: str) -> None:
        self.leftovers.append(f"{self.name(path)}: {what}, identical to the template's")

    def each(self, paths: Iterable[Path], read_one: Callable[[Path], Any]) -> None:
        """`read_one` on each file; one that cannot be read is skipped and named, and the rest
        come in. A file whose shape the reader does not expect (a list where the generator's
        schema has a mapping, …) is named the same way, never a traceback."""
        for path in paths:
            try:
                read_one(path)
            except Unreadable as unreadable:
                self.skipped.append(str(unreadable))
            except (AttributeError, KeyError, TypeError, ValueError) as error:
                self.skip(self.name(path), f"{UNEXPECTED} ({type(error).__name__}: {error})")


# Reading files


def git_blob_id(data: bytes) -> str:
    """The id git gives a file's bytes, which the template's history is listed by."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


@functools.cache
def _template_files() -> frozenset[str]:
    text = (Path(__file__).parent / "data" / "template_files.txt").read_text()
    return frozenset(line for line in text.split() if not line.startswith("#") and len(line) == 40)


MIN_FINGERPRINTED = 200  # a text shorter than this could be anyone's; it is never a sample's


def text_fingerprint(body: str) -> str:
    """A post's text, as read and with its spacing evened out, hashed: the same for the
    template's sample however its front matter was re-saved; "" for a short text."""
    words = " ".join(_cleaned(body).split())  # as the template's list was made
    if len(words) < MIN_FINGERPRINTED:
        return ""
    return hashlib.sha1(words.encode(), usedforsecurity=False).hexdigest()


def title_fingerprint(title: str) -> str:
    words = " ".join(plain(title).casefold().split())
    return hashlib.sha1(f"title:{words}".encode(), usedforsecurity=False).hexdigest()


@functools.cache
def _template_posts() -> frozenset[str]:
    text = (Path(__file__).parent / "data" / "template_posts.txt").read_text()
    return frozenset(line for line in text.split() if not line.startswith("#") and len(line) == 40)


def is_hidden(front: dict[str, Any]) -> bool:
    """A page the site keeps out of its menu and out of the build: al-folio's `nav: false`,
    Hugo's `draft: true` or `_build: {render: never}`."""
    build = mapping_of(front, "_build")
    return (
        front.get("nav") is False
        or str(front.get("nav")).lower() == "false"
        or front.get("draft") is True
        or build.get("render") in ("never", False)
    )


def mapping_of(values: dict[str, Any], key: str) -> dict[str, Any]:
    """The mapping `values` holds under `key`: {} where it holds none (or a list, a text)."""
    found = values.get(key)
    return found if isinstance(found, dict) else {}


def read_publications(site: Site, path: Path) -> None:
    """A BibTeX file's papers, as the BibTeX importer reads them; an invalid DOI, optional, is
    dropped and named rather than holding its paper back."""
    try:
        records = read_bibtex(read_text(site, path), site.name(path))
    except ImportProblem as error:  # no entry at all, or braces nested past reading
        raise Unreadable(site.name(path), str(error).removeprefix(f"{site.name(path)} ")) from None
    for record in records:
        for problem in list(record.problems):
            if problem.startswith("invalid DOI"):
                record.problems.remove(problem)
                record.doi = ""
                record.dropped.append(f"{problem} (dropped)")
    site.records += records


def read_text(site: Site, path: Path) -> str:
    """A text file of the site; one larger than a page could be is refused (the whole site),
    one that is not UTF-8 is skipped."""
    site.ledger.opened(site.name(path))
    if path.stat().st_size > MAX_TEXT_BYTES:
        raise SiteProblem(f"{site.name(path)} is larger than {MAX_TEXT_BYTES // 2**20} MB.")
    try:
        return path.read_text(encoding="utf-8-sig")  # a BOM is no part of the text
    except UnicodeDecodeError:
        raise Unreadable(site.name(path), "not UTF-8 text") from None


def load_yaml(site: Site, path: Path) -> Any:
    return site.ledger.track(site.name(path), _yaml(site.name(path), read_text(site, path)))


def load_data(site: Site, path: Path) -> Any:
    """A data file as Hugo reads data/ (YAML, TOML or JSON by its suffix)."""
    return site.ledger.track(site.name(path), _data(site.name(path), read_text(site, path), path))


def _data(name: str, text: str, path: Path) -> Any:
    if path.suffix == ".toml":
        return _toml(name, text)
    if path.suffix == ".json":
        return _json(name, text)
    return _yaml(name, text)


def _yaml(name: str, text: str, first_line: int = 1) -> Any:
    """YAML as Hugo and Jekyll read it: their parsers take a tab where PyYAML wants a space
    (`title:\tA paper`, a tab after a value), so a text PyYAML refuses for a tab is read again
    with spaces for its tabs (tabs that indent stay refused, by them as by us)."""
    try:
        return yaml.load(text, Loader=FAST_LOADER)
    except (yaml.YAMLError, ValueError) as error:
        if "\t" in text:
            spaced = re.sub(r"(?m)(?<=\S)([^\S\n]*)\t", lambda m: m[1] + " ", _flow_tabs(text))
            try:
                return yaml.safe_load(spaced)
            except (yaml.YAMLError, ValueError):
                pass
        # where the unreadable construct starts (an unclosed "[" ), else where it was noticed
        mark = getattr(error, "context_mark", None) or getattr(error, "problem_mark", None)
        line = first_line + mark.line if mark else None
        reason = getattr(error, "problem", None) or str(error)
        raise Unreadable(name, f"not valid YAML ({reason})", line) from None


def _flow_tabs(text: str) -> str:
    """Tabs inside a flow list or mapping (`tags: [a,\n\tb]`) as spaces: there YAML (and
    Hugo) take a tab as any other white space; PyYAML refuses one that starts a line."""
    out, depth, quote = [], 0, ""
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'" and depth:
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}" and depth:
            depth -= 1
        elif char == "\t" and depth:
            char = " "
        out.append(char)
    return "".join(out)


def _toml(name: str, text: str, first_line: int = 1) -> Any:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise Unreadable(name, f"not valid TOML ({error})") from None


def _json(name: str, text: str, first_line: int = 1) -> Any:
    try:
        return json.loads(text)
    except ValueError as error:
        line = first_line + error.lineno - 1 if isinstance(error, json.JSONDecodeError) else None
        raise Unreadable(name, "not valid JSON", line) from None


_FENCES = {"---": ("---", "..."), "+++": ("+++",)}


def front_matter(site: Site, path: Path) -> tuple[dict[str, Any], str]:
    """A page's front matter and its body, as Hugo and Jekyll find them: YAML between "---"
    lines, TOML between "+++" lines or a JSON object, after any blank lines and a BOM."""
    text = read_text(site, path)
    name = site.name(path)
    start = len(text) - len(text.lstrip())
    first_line = text.count("\n", 0, start) + 1
    text = text[start:]
    if text.startswith("{"):
        try:
            values, end = json.JSONDecoder().raw_decode(text)
        except ValueError:
            raise Unreadable(name, "its JSON front matter is not valid", first_line) from None
        return site.ledger.track(name, _fields(name, values, first_line)), text[end:].lstrip("\n")
    fence = text[:3]
    if fence not in _FENCES or text[3:].partition("\n")[0].strip():
        return {}, text
    lines = text.split("\n")
    close = next(
        (i for i, line in enumerate(lines[1:], 1) if line.rstrip() in _FENCES[fence]), None
    )
    if close is None:
        raise Unreadable(name, f"its front matter has no closing “{fence}”", first_line)
    head = "\n".join(lines[1:close])
    parse = _toml if fence == "+++" else _yaml
    values = parse(name, head, first_line + 1) or {}
    return site.ledger.track(name, _fields(name, values, first_line)), "\n".join(lines[close + 1 :])


def values_of_page(site: Site, path: Path) -> tuple[dict[str, Any], str]:
    """A page's front matter without marking its keys as read (a look, not a reading)."""
    scratch = Site(generator=site.generator, root=site.root)
    return front_matter(scratch, path)


def values_of(site: Site, path: Path) -> Any:
    """A file's front matter or data as the generators read it, for the ledger to list the
    keys of a file no reader opened; None when it cannot be read."""
    scratch = Site(generator=site.generator, root=site.root)
    try:
        if path.suffix.lower() in (".yml", ".yaml", ".toml", ".json"):
            return load_data(scratch, path)
        return front_matter(scratch, path)[0]
    except (Unreadable, SiteProblem):
        return None


def _fields(name: str, values: Any, line: int) -> dict[str, Any]:
    if not isinstance(values, dict):
        raise Unreadable(name, "its front matter is not a set of fields", line)
    return values


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


# The keys a page names its featured image by: Hugo's `image` (its `filename`, else the page
# bundle's featured.jpg), al-folio's `thumbnail` and `img`, minimal-mistakes' `header`.
FEATURED_KEYS = ("image", "featured_image", "thumbnail", "preview", "img")
BUNDLED = ("featured.jpg", "featured.jpeg", "featured.png", "featured.webp", "featured.gif")


def featured_image(site: Site, path: Path, front: dict[str, Any]) -> str:
    """The featured image the page `path` names, as it names it ("" for none). A page that
    names more than one (a header image and a teaser) has the first; the others are named."""
    found = []
    for key in FEATURED_KEYS:
        value = front.get(key)
        if isinstance(value, dict):
            value = value.get("filename")
        if isinstance(value, str) and value.strip():
            found.append(value.strip())
    header = front.get("header")
    if isinstance(header, dict):
        found += [str(header[k]).strip() for k in ("teaser", "image") if header.get(k)]
    if path.stem in ("index", "_index"):  # a Hugo page bundle's own featured image
        found += [name for name in BUNDLED if (path.parent / name).is_file()][:1]
    found = list(dict.fromkeys(found))
    for other in found[1:]:
        site.no_home.append(
            f"{site.name(path)}: its image {other} (its featured image is {found[0]})"
        )
    return found[0] if found else ""


# Text


_LIQUID_COMMENT = re.compile(r"{%-?\s*comment\s*-?%}.*?{%-?\s*endcomment\s*-?%}", re.S)
_LIQUID_ANY = re.compile(r"{%-?.*?-?%}|{{-?.*?-?}}", re.S)
# Liquid output holds names, quotes and filters, never a backslash or a brace: TeX's
# `\frac{{a}}{b}` in a Hugo page (which has no Liquid) is no Liquid output.
_LIQUID = re.compile(r"{%-?.*?-?%}|{{-?[^{}\\]*?-?}}", re.S)
_SHORTCODE = re.compile(r"{{[<%]\s*/?\s*[\w.-]+[^}]*?[>%]}}", re.S)
_KRAMDOWN = re.compile(r"{:[^}\n]*}")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_HIDDEN = re.compile(
    r"<(div|span|p)\b[^>]*\b(class=\"[^\"]*\bd-none\b[^\"]*\"|hidden\b|aria-hidden=\"true\")"
    r"[^>]*>.*?</\1>",
    re.S,
)
_BLANK_LINES = re.compile(r"\n{3,}")
# A form posts to a service of the old site's (Formspree…) and a script or style works its
# pages: none means anything here, and a form's labels left alone read as nonsense.
_FORM = re.compile(r"<(form|script|style)\b.*?</\1\s*>", re.S | re.I)


def clean_markdown(text: str) -> str:
    """Markdown as the site's readers saw it: Liquid tags and output, Hugo shortcodes,
    kramdown attribute lists, HTML comments (`<!--more-->`) and hidden blocks taken out
    (what a shortcode wraps stays); the generators' own markup means nothing here.

    What the generators write in their own ways and labsite's Markdown says too is written
    as labsite's first: figures (Hugo's `figure` shortcode, al-folio's `figure` include) as
    images, Liquid's and Hugo's `highlight` as fenced code, and formulas kramdown and
    goldmark pass to MathJax (written with two backslashes) as `$$…$$` and `\\(…\\)`.
    Code blocks and `$$…$$` formulas are kept as written, but for Liquid's `raw` markers and
    Hugo's escaped shortcodes in code, which the generators show without their escapes."""
    text = _HIGHLIGHT.sub(_fenced, _LIQUID_COMMENT.sub("", text or ""))
    parts, last = [], 0
    for fence in _FENCED.finditer(text):
        parts.append(_uncoded(text[last : fence.start()]))
        code = _LIQUID_RAW.sub("", fence[0])
        parts.append(_ESCAPED_SHORTCODE.sub(r"{{\1\2\3}}", code))
        last = fence.end()
    parts.append(_uncoded(text[last:]))
    return "".join(parts).strip()


def _uncoded(text: str) -> str:
    """Text outside code blocks, cleaned (see clean_markdown); its `$$…$$` formulas kept."""
    text = _FIGURE.sub(_figure_image, text)
    text = _BRACKET_MATH.sub(_dollar_math, text)
    parts, last = [], 0
    for formula in _DISPLAY_MATH.finditer(text):
        parts += [_without_markup(text[last : formula.start()], _LIQUID), formula[0]]
        last = formula.end()
    parts.append(_without_markup(text[last:], _LIQUID))
    return _BLANK_LINES.sub("\n\n", "".join(parts))


def _cleaned(text: str) -> str:
    """Text with the generators' own markup taken out, code blocks and all: how the
    template's sample posts were fingerprinted (data/template_posts.txt)."""
    text = _without_markup(_LIQUID_COMMENT.sub("", text or ""), _LIQUID_ANY)
    return _BLANK_LINES.sub("\n\n", text).strip()


def _without_markup(text: str, liquid: re.Pattern) -> str:
    text = _FORM.sub("", text)
    text = _HIDDEN.sub("", text)
    text = _COMMENT.sub("", text)
    text = _SHORTCODE.sub("", text)
    text = liquid.sub("", text)
    return _KRAMDOWN.sub("", text)


_DISPLAY_MATH = re.compile(r"\$\$.+?\$\$", re.S)
# A fenced code block, whole (any indentation: in a list item too).
_FENCED = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?^[ \t]*\1[`~]*[ \t]*$", re.S | re.M)
_LIQUID_RAW = re.compile(r"{%-?\s*(?:end)?raw\s*-?%}")
_ESCAPED_SHORTCODE = re.compile(r"{{([<%])/\*(.*?)\*/([>%])}}", re.S)
# Liquid's {% highlight python linenos %}…{% endhighlight %}, Hugo's {{< highlight go >}}
_HIGHLIGHT = re.compile(
    r"^([ \t]*){%-?\s*highlight\s+([^\s%]*)[^%]*?-?%}[ \t]*\n?(.*?)\n?[ \t]*"
    r"{%-?\s*endhighlight\s*-?%}"
    r"|^([ \t]*){{[<%]\s*highlight\s+\"?([^\s\"%>]*)\"?[^}]*?[>%]}}[ \t]*\n?(.*?)\n?[ \t]*"
    r"{{[<%]\s*/\s*highlight\s*[>%]}}",
    re.S | re.M,
)


def _fenced(match: re.Match) -> str:
    indent, language, code = match.group(1, 2, 3) if match[3] is not None else match.group(4, 5, 6)
    fence = "~~~" if "```" in code else "```"
    return f"{indent}{fence}{language or ''}\n{code}\n{indent}{fence}"


# Hugo's {{< figure src="…" alt="…" caption="…" >}}, al-folio's {% include figure.liquid
# path="…" title="…" %} (figure.html before v0.12)
_FIGURE = re.compile(
    r"{{[<%]\s*figure\b(?P<hugo>[^}]*?)/?\s*[>%]}}"
    r"|{%-?\s*include\s+figure\.(?:html|liquid)\b(?P<liquid>[^%]*?)-?%}",
    re.S,
)
_PARAMETER = re.compile(r"""([\w-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([^\s"']+))""")


def _figure_image(match: re.Match) -> str:
    """A figure as a Markdown image: its address, alt text and caption (as the image's
    title, which labsite shows as the figure's caption). Hugo's figure gives its caption
    (else its title) as the alt text where it has none, as readers of the site heard it;
    al-folio's gives none, and its `title` is a tooltip, not a caption."""
    hugo = match["hugo"] is not None
    values = {
        key.lower(): double.replace('\\"', '"') if double else single or bare
        for key, double, single, bare in _PARAMETER.findall(match["hugo"] or match["liquid"])
    }
    source = (values.get("src") or values.get("path") or values.get("url") or "").strip()
    caption = plain(values.get("caption") or (values.get("title") if hugo else "") or "")
    alt = plain(values.get("alt") or "") or (caption if hugo else "")
    alt = alt.replace("[", "\\[").replace("]", "\\]")
    title = ' "{}"'.format(caption.replace('"', '\\"')) if caption else ""
    return f"\n\n![{alt}](<{source}>{title})\n\n"


# Formulas written for MathJax through kramdown or goldmark, which read `\\[` as `\[`: as
# labsite's renderer reads them (`$$…$$`, and `\\(…\\)`); code spans left alone.
_BRACKET_MATH = re.compile(r"(`+)(?:.+?)\1|\\\\\[(.+?)\\\\\]|\\\\\((.+?)\\\\\)", re.S)


def _dollar_math(match: re.Match) -> str:
    if match[2] is not None:
        return f"$${match[2]}$$"
    if match[3] is not None:
        return f"\\({match[3]}\\)"
    return match[0]


def has_form(text: str) -> bool:
    """Whether a page holds a form (its text comes in without it, named)."""
    return bool(re.search(r"<form\b", text or "", re.I))


def plain(text: Any) -> str:
    """One line of text from a field that may hold Markdown emphasis or HTML: read as HTML
    (tags out, `&apos;` and `&amp;` as the characters they stand for), then cleaned."""
    text = re.sub(r"<br\s*/?>", " ", str(text or ""), flags=re.I)
    text = html.unescape(re.sub(r"<[^>]+>", "", text))
    text = re.sub(r"(\*\*|\*)(.+?)\1", r"\2", text)
    # underscores emphasise only at a word's edges: `Poset_Least_Squares` is one word
    text = re.sub(r"(?<!\w)(__|_)(?=\S)(.+?)(?<=\S)\1(?!\w)", r"\2", text)
    return " ".join(text.split())


def split_roles(value: Any) -> list[str]:
    """A role as sites write it, with `<br>` (or a new line, or " | ") between its parts:
    each part as plain text."""
    text = str(value or "")
    parts = re.split(r"<br\s*/?>|\n|\s\|\s", text, flags=re.I)
    return [plain(part) for part in parts if plain(part)]


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
