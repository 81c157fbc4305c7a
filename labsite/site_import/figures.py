"""A site's images brought into the lab's media library: each image a text shows (`![alt](path)`,
`<img src="path">`, and the generators' figures, which the readers write so) and each featured
image, found in the site's folder, passes the checks every upload passes and is kept once,
under a name made from its path; the text then shows it as `media:NAME`.

What cannot come in stays in the text as the site wrote it (the page shows its alt text in its
place) and is named with its file and why: not in the folder, from a host the lab does not
show images from, or refused by the checks. The site's alt text comes with the image; where
the site gives none, or gives it in one language, none is made up: the image waits for it in
the media library, and the preview says which."""

import html
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from anyascii import anyascii
from django.core.exceptions import ValidationError
from django.core.files import File
from django.utils.text import slugify
from PIL import Image

from core import images
from core.markup import image_hosts, mostly_cjk_language
from core.weblinks import is_web_url
from media.models import MASTER_SIDE, MediaItem

# Where the generators keep the images a page names by a bare or absolute path: Hugo serves
# static/ at the site's root and Hugo Blox's figures look in assets/media/; Jekyll serves the
# site's folder itself.
FOLDERS = ("static", "assets/media", "assets/media/uploads", "assets/img", "assets/images")
# Leading folders that say nothing of the image, left out of its name in the library.
_NAME_PREFIX = re.compile(
    r"^(?:content/|static/|assets/(?:media/|img/|images/)?|images?/|img/|uploads/)+", re.I
)
_IMAGE = re.compile(
    # code, shown as written: a fenced block, a code span (no image in either)
    r"(?P<fence>^[ \t]*(?P<mark>`{3,}|~{3,})[^\n]*\n.*?^[ \t]*(?P=mark)[`~]*[ \t]*$)"
    r"|(?P<span>(?P<ticks>`+)(?!`)(?:(?!\n[ \t]*\n).)+?(?<!`)(?P=ticks)(?!`))"
    r"|!\[(?P<alt>(?:[^\]\\\n]|\\.)*)\]\(\s*(?P<ref><[^>\n]*>|[^)\s]+)"
    r"(?P<title>\s+(?:\"(?:(?!\n[ \t]*\n)[^\"\\]|\\.)*\"|'[^'\n]*'))?\s*\)"
    r"|(?P<html><img\b[^>]*>)",
    re.S | re.M | re.I,
)
_ATTRIBUTE = re.compile(r"""\b(src|alt|title)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.I)


@dataclass
class Figures:
    """The images of one import: each file of the site brought in once (`apply`), or looked
    at as it would be (a preview), with what the report says of each."""

    site: Any  # the Site
    report: Any  # the Report
    apply: bool
    names: dict[Path, str | None] = field(default_factory=dict)  # file → name, None: refused
    taken: set[str] = field(default_factory=set)  # names given in this import

    # Texts

    def text(self, text: str, source: str) -> str:
        """`text` (Markdown, of the file `source`) with each image it shows from the site's
        folder as `media:NAME`; the others as written, and named."""
        if not text or ("![" not in text and "<img" not in text.lower()):
            return text
        return _IMAGE.sub(lambda match: self._image(match, source), text)

    def _image(self, match: re.Match, source: str) -> str:
        if match["fence"] or match["span"]:
            return match[0]
        if match["html"]:
            attributes = {
                key.lower(): next((v for v in values if v), "")
                for key, *values in _ATTRIBUTE.findall(match["html"])
            }
            reference = attributes.get("src", "")
            alt = html.unescape(attributes.get("alt", ""))
            title = html.unescape(attributes.get("title", ""))
        else:
            reference = match["ref"].strip("<>")
            alt = re.sub(r"\\(.)", r"\1", match["alt"])
            title = (match["title"] or "").strip()[1:-1]
        name = self._shown(reference, source, alt)
        if name is None:
            return match[0]
        image = "![{}](media:{}{})".format(
            alt.replace("[", "\\[").replace("]", "\\]"),
            name,
            ' "{}"'.format(title.replace('"', '\\"')) if title else "",
        )
        if match["html"]:
            return _in_html(match, image)
        return image

    def _shown(self, reference: str, source: str, alt: str) -> str | None:
        """The library's name for the image `reference` a text of `source` shows, or None
        (the reference stays as written, named when the lab cannot show it)."""
        reference = reference.strip()
        where = f"{source}: the image {_shortened(reference) or '(no address)'}"
        if reference.startswith("media:"):
            return None
        if reference.startswith("data:"):
            self.report.notes.append(
                f"{where} (written into the page as data, which the lab does not show: the "
                "text keeps it, and its alt text shows in its place until it is uploaded to "
                "the media library)"
            )
            return None
        if reference.startswith("//"):
            reference = f"https:{reference}"
        if is_web_url(reference) or urlsplit(reference).scheme:
            parts = urlsplit(reference)
            if parts.scheme != "https" or (parts.hostname or "") not in image_hosts():
                self.report.notes.append(
                    f"{where} (from {parts.hostname or parts.scheme}, a host the lab does not "
                    "show images from: the text keeps it, and its alt text shows in its place "
                    "until it is uploaded to the media library or its host is added to "
                    "MARKDOWN_IMAGE_HOSTS)"
                )
            return None
        path = self._find(reference, source)
        if path is None:
            self.report.notes.append(f"{where} (not in the folder)")
            return None
        return self._brought_in(path, alt, where)

    # Featured images

    def featured(self, reference: str, source: str, alt: str = "") -> MediaItem | None:
        """The media item for the featured image `reference` of the page `source`, brought
        in; None when it cannot be (named) or in a preview (counted only)."""
        reference = reference.strip()
        where = f"{source}: its featured image {_shortened(reference)}"
        if is_web_url(reference) or urlsplit(reference).scheme:
            self.report.notes.append(
                f"{where} (on another site: a featured image is one of the media library's)"
            )
            return None
        path = self._find(reference, source)
        if path is None:
            self.report.notes.append(f"{where} (not in the folder)")
            return None
        name = self._brought_in(path, alt, where)
        if name is None or not self.apply:
            return None
        return MediaItem.objects.get(name=name)

    # Files

    def _find(self, reference: str, source: str) -> Path | None:
        """The site's file `reference` names from the page `source`: beside the page (a Hugo
        page bundle, "../images/x.png"), else from the site's root or its image folders. A
        name that leads out of the site's folder names nothing."""
        reference = unquote(reference.split("#")[0].split("?")[0]).strip()
        if not reference:
            return None
        root = self.site.root.resolve()
        page_folder = Path(source.split(",")[0]).parent.as_posix()
        bases = ([page_folder] if not reference.startswith("/") else []) + ["", *FOLDERS]
        for base in bases:
            path = (self.site.root / base / reference.lstrip("/")).resolve()
            if path.is_relative_to(root) and path.is_file():
                return path
        return None

    def _brought_in(self, path: Path, alt: str, where: str) -> str | None:
        """The library's name for the site's image file `path`: an item of the library that
        is this image already, else a new one (written when applying); None when the upload
        checks refuse the file (named)."""
        if path in self.names:
            return self.names[path]
        words = _NAME_PREFIX.sub("", self.site.name(path)).rsplit(".", 1)[0]
        base = slugify(anyascii(re.sub(r"[/_.]+", " ", words)))[:55].strip("-") or "image"
        name, number = base, 1
        while True:
            found = MediaItem.objects.filter(name=name).first()
            if name not in self.taken and (found is None or _same_size(found, path)):
                break
            number += 1
            name = f"{base}-{number}"
        self.taken.add(name)
        if found is not None:
            self.names[path] = name
            self.report.count("image", "unchanged", name)
            return name
        language = mostly_cjk_language(alt) if alt else None
        # the site's alt text, in the column of its language where the lab keeps that one
        alt_text = {"alt_en": "", "alt_zh_hans": ""}
        if alt and language in (None, "zh"):
            alt_text["alt_zh_hans" if language else "alt_en"] = alt[:250]
        item = MediaItem(name=name, **alt_text)
        item.awaits_alt_text = not all(alt_text.values())
        try:
            with path.open("rb") as file:
                upload = File(file, name=path.name)
                if self.apply:
                    item.image = upload
                    item.save()  # the upload checks, then the master image and its sizes
                else:
                    images.open_upload(upload)
                    images.refuse_hidden_content(upload)
        except ValidationError as error:
            self.names[path] = None
            self.taken.discard(name)
            self.report.skipped.append(
                f"{self.site.name(path)}: {' '.join(error.messages)} ({where.split(': ')[0]} "
                "shows its alt text in its place)"
            )
            return None
        self.names[path] = name
        self.report.count("image", "new", name)
        if item.awaits_alt_text:
            if not alt:
                why = "the site gives none: write what it shows, in English and Chinese"
            elif alt_text["alt_en"]:
                why = "the site's is in English only: write it in Chinese"
            elif alt_text["alt_zh_hans"]:
                why = "the site's is in Chinese only: write it in English"
            else:
                why = "the site's is in another language: write it in English and Chinese"
            self.report.to_complete.append(
                f"{self.site.name(path)}: media:{name} awaits its alt text ({why}, in the "
                "media library)"
            )
        return name


def _shortened(reference: str) -> str:
    """An image's address as a line of the preview names it: its first 100 characters."""
    return reference if len(reference) <= 100 else f"{reference[:100]}…"


def _same_size(item: MediaItem, path: Path) -> bool:
    """Whether the library's `item` is the image in `path` as its upload stored it (within a
    pixel, upright either way, no side beyond the master's): read from the file's header."""
    try:
        with Image.open(path) as picture:
            width, height = picture.size
    except Exception:  # not an image Pillow reads: it is no image of the library
        return False
    for w, h in ((width, height), (height, width)):
        scale = min(1.0, MASTER_SIDE / max(w, h, 1))
        if (
            abs(round(w * scale) - (item.width or 0)) <= 1
            and abs(round(h * scale) - (item.height or 0)) <= 1
        ):
            return True
    return False


def _in_html(match: re.Match, image: str) -> str:
    """A Markdown image where an `<img>` tag was: in place in a line of Markdown; on lines of
    its own, indented as its line is, within HTML (whose lines the Markdown parser does not
    read, up to the next blank line)."""
    text = match.string
    lines = text[: match.start()].split("\n")
    current, block = lines[-1], []
    for line in reversed(lines[:-1]):
        if not line.strip():
            break
        block.append(line)
    first = block[-1] if block else current
    end = text.find("\n", match.end())
    rest = text[match.end() : end if end >= 0 else len(text)]
    alone = not block and not current.strip() and not rest.strip()
    if alone or not first.lstrip().startswith("<"):
        return image
    indent = current[: len(current) - len(current.lstrip(" \t"))]
    return f"\n\n{indent}{image}\n\n{indent}"
