"""What a site's files show, counted by a reader of the test's own (its own regexes and
YAML reads, not the importer's): the body images, featured images, tags, formulas and code
blocks of every page of the site; and where each of them went after an import: landed (in a
text the renderer shows it from, on a row, in the tag vocabulary) or named by the import.

Each found item is one of KINDS, with the file it is in and what identifies it (an image's
address, a tag's word, a formula's TeX, a code block's text)."""

import re
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import yaml
from django.db import models
from django.utils.text import slugify

from core import content
from core.markup import image_hosts
from labsite.site_import.ledger import LANDED
from media.models import MediaItem
from people.models import Person, Project
from tags.models import Tag

KINDS = ("body image", "featured image", "tag", "math", "code")
PAGES = {".md", ".markdown", ".html", ".rmd"}
FRONT = re.compile(
    r"\A\ufeff?\s*(---|\+\+\+)[ \t]*\n(.*?)\n(?:---|\+\+\+|\.\.\.)[ \t]*(?:\n|\Z)", re.S
)
FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n(.*?)^[ \t]*\1[`~]*[ \t]*$", re.S | re.M)
HIGHLIGHT = re.compile(r"{%-?\s*highlight\b[^%]*%}(.*?){%-?\s*endhighlight\s*-?%}", re.S)
COMMENT = re.compile(r"<!--.*?-->|{%-?\s*comment\s*-?%}.*?{%-?\s*endcomment\s*-?%}", re.S)
CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.S)
MARKDOWN_IMAGE = re.compile(r"!\[[^\]\n]*\]\(\s*<?([^)\s>]+)")
HTML_IMAGE = re.compile(r"<img\b[^>]*>", re.I)
SOURCE = re.compile(r"""\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.I)
SITE_URL = re.compile(r"{{-?\s*site\.(?:url|baseurl)\s*-?}}")  # Jekyll's own address
HUGO_FIGURE = re.compile(r"{{[<%]\s*figure\b([^}]*)[>%]}}")
JEKYLL_FIGURE = re.compile(r"{%-?\s*include\s+figure\.(?:html|liquid)\b([^%]*)%}")
PARAMETER = re.compile(r"""\b(src|path)\s*=\s*(?:"([^"]*)"|'([^']*)'|(\S+))""")
# $$…$$, \[…\] and \(…\) as MathJax reads them in a site's HTML; a Markdown page writes the
# last two \\[…\\] (kramdown and goldmark read \[ as an escaped "[")
MATH = re.compile(r"\$\$(.+?)\$\$|\\\\\[(.+?)\\\\\]|\\\\\((.+?)\\\\\)", re.S)
HTML_MATH = re.compile(r"\$\$(.+?)\$\$|\\\[(.+?)\\\]|\\\((.+?)\\\)", re.S)
# The forms labsite's renderer reads a formula in: $$…$$ and \(…\)
SHOWN_MATH = re.compile(r"\$\$(.+?)\$\$|(?<!\\)\\\((.+?)\\\)", re.S)
HTML_TAG = re.compile(r"<[a-zA-Z/][^>]*>")
FEATURED_KEYS = ("image", "preview", "featured_image", "thumbnail", "img")
TAG_KEYS = ("tags", "categories", "keywords")


@dataclass(frozen=True)
class Item:
    kind: str
    file: str
    value: str
    key: str = ""  # a tag's or featured image's key in the front matter ("tags", "image")


def found_items(root: Path) -> list[Item]:
    """Every item of every page of the site at `root`, in file order."""
    items = []
    for path in sorted(root.rglob("*")):
        if path.suffix.lower() not in PAGES or not path.is_file():
            continue
        name = path.relative_to(root).as_posix()
        front, body = _split(path)
        items += [Item("featured image", name, ref, key) for key, ref in _featured(front)]
        if path.stem in ("index", "_index"):
            bundled = sorted(path.parent.glob("featured.*"))
            items += [Item("featured image", name, p.name, "image") for p in bundled[:1]]
        items += [Item("tag", name, word, key) for key, word in _tags(front)]
        codes = [m[2] for m in FENCE.finditer(body)] + HIGHLIGHT.findall(body)
        items += [Item("code", name, _code(code)) for code in codes]
        text = COMMENT.sub("", HIGHLIGHT.sub("", FENCE.sub("", body)))
        items += [Item("body image", name, ref) for ref in images_in(text)]
        formulas = _formulas(text, HTML_MATH if path.suffix.lower() == ".html" else MATH)
        items += [Item("math", name, tex) for tex in formulas]
    return items


def images_in(text: str) -> list[str]:
    """The address of each image a text shows, in any of the generators' ways."""
    text = SITE_URL.sub("", text)
    found = []
    for match in re.finditer(
        "|".join(p.pattern for p in (MARKDOWN_IMAGE, HTML_IMAGE, HUGO_FIGURE, JEKYLL_FIGURE)),
        text,
        re.I,
    ):
        whole = match[0]
        if whole.startswith("!"):
            found.append(MARKDOWN_IMAGE.match(whole)[1])
        elif whole.lower().startswith("<img"):
            source = SOURCE.search(whole)
            found.append(next(filter(None, source.groups()), "") if source else "")
        else:
            parameter = PARAMETER.search(whole)
            found.append(next(filter(None, parameter.groups()[1:]), "") if parameter else "")
    return found


def _split(path: Path) -> tuple[dict, str]:
    text = path.read_text(encoding="utf-8-sig", errors="replace")
    match = FRONT.match(text)
    if match is None:
        return {}, text
    try:
        front = tomllib.loads(match[2]) if match[1] == "+++" else _yaml(match[2])
    except (ValueError, yaml.YAMLError, tomllib.TOMLDecodeError):
        front = None
    return (front if isinstance(front, dict) else {}), text[match.end() :]


def _yaml(text: str):
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return yaml.safe_load(re.sub(r"(?m)(?<=\S)([^\S\n]*)\t", r"\1 ", text))


def _featured(front: dict) -> list[tuple[str, str]]:
    """(key, address) of each featured image a page's front matter names."""
    refs = []
    for key in FEATURED_KEYS:
        value = front.get(key)
        if isinstance(value, dict):
            value = value.get("filename")
        if isinstance(value, str) and value.strip():
            refs.append((key, value.strip()))
    header = front.get("header")
    if isinstance(header, dict):
        refs += [("header", str(header[k]).strip()) for k in ("teaser", "image") if header.get(k)]
    return refs


def _tags(front: dict) -> list[tuple[str, str]]:
    """(key, word) for each tag a page gives (Jekyll splits a string of tags at spaces,
    keywords at commas)."""
    words = []
    for key in TAG_KEYS:
        value = front.get(key)
        if isinstance(value, str):
            value = value.split(",") if key == "keywords" else value.split()
        if isinstance(value, list):
            value = [w.get("tag") or w.get("name") if isinstance(w, dict) else w for w in value]
            words += [(key, str(w).strip()) for w in value if w is not None and str(w).strip()]
    return words


def _code(text: str) -> str:
    """A code block's text as the generators show it (without Liquid's `raw` markers, Hugo's
    escaped shortcodes unescaped), its lines' ends and the block's ends trimmed."""
    text = re.sub(r"{%-?\s*(?:end)?raw\s*-?%}", "", text)
    text = re.sub(r"{{([<%])/\*(.*?)\*/([>%])}}", r"{{\1\2\3}}", text, flags=re.S)
    return "\n".join(line.rstrip() for line in text.strip("\n").split("\n")).strip()


def _formulas(text: str, pattern: re.Pattern) -> list[str]:
    """The formulas of a text, outside code and HTML tags (a formula image's address, or
    its title, is no formula MathJax typesets)."""
    text = HTML_TAG.sub("", CODE_SPAN.sub("", text))
    return [" ".join(next(filter(None, m.groups())).split()) for m in pattern.finditer(text)]


# What landed


def stored_texts() -> list[str]:
    """Every text of every content row (no history rows)."""
    texts = []
    for model in content.models_of():
        columns = [
            f.attname
            for f in model._meta.concrete_fields
            if isinstance(f, models.TextField | models.CharField)
        ]
        for row in model._default_manager.values_list(*columns):
            texts += [value for value in row if value and isinstance(value, str)]
    return texts


def landed_pools() -> dict[str, Counter]:
    """What the lab holds after the import, per kind, to match found items against."""
    texts = stored_texts()
    shown = Counter()
    media = set(MediaItem.objects.values_list("name", flat=True))
    for text in texts:
        body = COMMENT.sub("", FENCE.sub("", text))
        for ref in images_in(body):
            if ref.startswith("media:") and ref.removeprefix("media:") in media:
                shown["media:"] += 1
            elif _allowed(ref):
                shown[ref] += 1
    linked = Counter()
    for relation in Tag.tagged_relations():
        through = relation.through
        target = relation.field.m2m_reverse_field_name()
        linked.update(
            slug for slug in through.objects.values_list(f"{target}__slug", flat=True).distinct()
        )
    for words in Project.objects.values_list("tags", flat=True):
        linked.update(slugify(word) for word in words.split(",") if slugify(word))
    featured = Counter()
    for model in content.models_of():
        if any(f.name == "featured_image" for f in model._meta.concrete_fields):
            featured["row"] += model._default_manager.exclude(featured_image=None).count()
    featured["row"] += Person.objects.exclude(photo="").count()
    return {
        "body image": shown,
        "featured image": featured,
        "tag": linked,
        "math": Counter(f for t in texts for f in _formulas(FENCE.sub("", t), SHOWN_MATH)),
        "code": Counter(_code(m[2]) for t in texts for m in FENCE.finditer(t)),
    }


def _allowed(ref: str) -> bool:
    parts = urlsplit(ref)
    return parts.scheme == "https" and (parts.hostname or "") in image_hosts()


def has_landed(item: Item, pools: dict[str, Counter]) -> bool:
    """Whether the item is in what the lab holds (a formula, code block or image counted
    once: two found alike need two landed)."""
    pool = pools[item.kind]
    if item.kind == "tag":
        return pool[slugify(item.value)] > 0
    key = item.value
    if item.kind == "featured image":
        key = "row"
    elif item.kind == "body image" and not urlsplit(key).scheme:
        key = "media:"
    if pool[key] > 0:
        pool[key] -= 1
        return True
    return False


# What the import named


def is_named(item: Item, lines: list[str], rows: dict[tuple[str, str], str]) -> bool:
    """Whether the import names the item: its whole file is not imported (a leftover of the
    template, a file no reader reads, named), the ledger names its key (a tag's, a featured
    image's), its page's text is named as not kept, or a line of the preview names the item
    in its file."""
    if rows.get((item.file, ""), LANDED) != LANDED:
        return True
    if item.key and rows.get((item.file, item.key), LANDED) != LANDED:
        return True
    reasons = [line.split(": ", 1)[1] for line in lines if _names_file(line, item.file)]
    if item.kind in ("body image", "math", "code") and any(map(TEXT_NOT_KEPT.match, reasons)):
        return True
    named = NAMED_ITEM[item.kind].format(re.escape(item.value[:100]))  # a data: address
    return bool(named) and any(re.search(named, reason) for reason in reasons)


# How the preview names a page's text it does not keep, and an item of each kind.
TEXT_NOT_KEPT = re.compile(
    r"the page's text|the news item's text|the announcement's body|its text\b|.* is dropped \("
)
NAMED_ITEM = {
    "body image": r"^the image {}(?:…| \(|$)",
    "featured image": r"\b(?:image|photo) {}(?:…| \(|$)",
    "tag": r"^the tag “{}”",
    "math": "",
    "code": "",
}


def _names_file(line: str, file: str) -> bool:
    where = line.split(": ", 1)[0]
    return where == file or where.startswith(f"{file}, ") or where.startswith(f"{file} (")


def table(site: str, fates: dict[str, Counter]) -> str:
    """The counts per kind as a table: found, landed, named, lost."""
    rows = [f"{site:<34} {'found':>6} {'landed':>6} {'named':>6} {'lost':>6}"]
    for kind, counts in fates.items():
        found = sum(counts.values())
        numbers = (found, counts["landed"], counts["named"], counts["lost"])
        rows.append(f"  {kind:<32} " + " ".join(f"{n:>6}" for n in numbers))
    return "\n".join(rows)


def shown() -> Counter:
    """What the lab's pages show of each kind, rendered from every Markdown text it holds:
    code blocks, formulas (MathML, or the TeX as code where it cannot be read) and images."""
    from core.markup import is_markdown_field, markdown_problems, render_page_markdown

    counts = Counter()
    for model in content.models_of():
        columns = [f.attname for f in model._meta.concrete_fields if is_markdown_field(f)]
        for row in model._default_manager.values_list(*columns) if columns else ():
            for text in filter(None, row):
                html = str(render_page_markdown(text))
                unread = sum("cannot be read" in p for p in markdown_problems(text, page=True))
                counts["code"] += html.count('<pre class="highlight"')
                counts["math"] += html.count("<math") + unread
                counts["body image"] += html.count("<img")
    return counts
