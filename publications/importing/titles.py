"""Titles as sources write them: markup (JATS, MathML, HTML) read to text, and the rank,
presentation, status and award tags people add to titles and venue names ("[A+] …",
"ICCV (Oral)", "… (Best Paper Award)", "(to appear)") taken out to where they belong."""

import html
import re
from dataclasses import dataclass, field

from publications.importing.latex import pylatexenc_text
from publications.importing.records import squash
from publications.models import Publication

# An inline formula often carries its formula twice (<alternatives>: TeX and MathML);
# the TeX is kept, the MathML copy dropped, and a lone MathML formula read as its text.
_TEX_MATH = re.compile(r"<(?:\w+:)?tex-math\b[^>]*>(.*?)</(?:\w+:)?tex-math>", re.S | re.I)
_MATHML = re.compile(r"<(?:mml:)?math\b[^>]*>.*?</(?:mml:)?math>", re.S | re.I)
_FORMULA = re.compile(
    r"<(?:\w+:)?inline-formula\b[^>]*>(.*?)</(?:\w+:)?inline-formula>", re.S | re.I
)
_TAG = re.compile(r"</?[A-Za-z][\w:.-]*(?:\s[^<>]*)?/?>")
_CDATA = re.compile(r"<!\[CDATA\[(.*?)\]\]>", re.S)


def has_markup(text: str) -> bool:
    return bool(_TAG.search(text or ""))


def markup_to_text(text: str) -> str:
    """`text` with its XML or HTML markup read: each inline formula as its TeX (for the
    LaTeX decoder that follows), MathML as its characters, other tags dropped, entities
    decoded. Text without tags is returned as it is."""
    if not text or "<" not in text:
        return text

    def formula(match: re.Match[str]) -> str:
        inner = _CDATA.sub(r"\1", match[1])
        tex = _TEX_MATH.search(inner)
        return tex[1] if tex else _TAG.sub("", inner)

    text = _FORMULA.sub(formula, text)
    text = _TEX_MATH.sub(lambda m: _CDATA.sub(r"\1", m[1]), text)
    text = _MATHML.sub(lambda m: _TAG.sub("", m[0]), text)
    return html.unescape(_TAG.sub("", text))


# Inline math as arXiv and OpenAlex titles write it: "$\\alpha$-helix", "Spin-$\\frac{1}{2}$".
# A "$" opens math only before a non-space and closes it only after one, so prices
# ("$5 and $10") stay text.
_INLINE_MATH = re.compile(r"\$(?=\S)([^$]{1,200}?)(?<=\S)\$")
_ENTITY = re.compile(r"&(?:#\d{1,7}|#x[\da-f]{1,6}|[a-z][a-z\d]{1,31});", re.I)


def clean_text(text: str) -> str:
    """A title, venue or name as a page shows it, from whatever a source wrote: markup read
    (`markup_to_text`), HTML entities decoded, twice-escaped ones ("S&amp;amp;P500") too,
    inline TeX math read to Unicode ("$\\alpha$" → "α", "$\\frac{1}{2}$" → "1/2"), on one
    line. Every reader passes its titles, venues and names through this one function."""
    if not text:
        return ""
    for _ in range(3):  # markup or "&" escaped once more ("&lt;i&gt;", "&amp;amp;")
        text = markup_to_text(text)
        if not _ENTITY.search(text):
            break
        text = html.unescape(text)
    text = markup_to_text(text)
    if "$" in text:
        text = _INLINE_MATH.sub(_math_text, text)
    return squash(text)


def _math_text(match: re.Match[str]) -> str:
    try:
        return squash(pylatexenc_text(match[0])) or match[0]
    except ValueError:
        return match[0]


# The words of tags, by where what they say belongs. Matched whole, case-insensitively.
_STATUS_WORDS = {
    "to appear": Publication.Status.ACCEPTED,
    "in press": Publication.Status.ACCEPTED,
    "accepted": Publication.Status.ACCEPTED,
    "forthcoming": Publication.Status.ACCEPTED,
    "under review": Publication.Status.PREPRINT,
    "submitted": Publication.Status.PREPRINT,
    "in submission": Publication.Status.PREPRINT,
}
_AWARD = re.compile(
    r"^(?:best|outstanding|distinguished)\s+(?:student\s+|short\s+|long\s+|demo\s+)?"
    r"(?:paper|artifact|poster|demo)(?:\s+(?:award|prize|nominee|nomination|candidate|"
    r"finalist|runner[- ]up|honou?rable mention))*$|^(?:honou?rable mention|best paper)$",
    re.I,
)
_NOTE = re.compile(
    r"^(?:oral(?:\s+presentation)?|spotlight|highlight|poster|long\s+paper|short\s+paper|"
    r"full\s+paper|survey(?:\s+paper)?|invited(?:\s+paper)?|extended\s+version|"
    r"(?:ccf|core)[- ]?[abc][*+]?|(?:jcr\s+)?q[1-4]|sci|ei|[abc][*+]|th-cpl[- ]?[abc])$",
    re.I,
)
_LEADING_BRACKET = re.compile(r"^\s*\[([^\[\]]{1,40})\]\s*")
_TRAILING_BRACKET = re.compile(r"\s*\[([^\[\]]{1,40})\]\s*$")
_TRAILING_PAREN = re.compile(r"\s*\(([^()]{1,40})\)\s*$")


@dataclass
class Tags:
    """What tags said: a status, award and note texts, each with the tag as written."""

    status: str = ""
    awards: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    found: list = field(default_factory=list)  # the tags as written: "[A+]", "(Oral)"

    def take(self, tag: str, written: str) -> bool:
        """Read one tag; False (and nothing kept) when it says nothing known."""
        words = " ".join(tag.strip().rstrip(".").split())
        status = _STATUS_WORDS.get(words.casefold())
        if status:
            self.status = self.status or status
        elif _AWARD.match(words):
            self.awards.append(words)
        elif _NOTE.match(words):
            if not any(n.casefold().startswith(words.casefold()) for n in self.notes):
                self.notes.append(words)
        else:
            return False
        self.found.append(written)
        return True


def split_tags(text: str, tags: Tags, *, brackets_only_known: bool = False) -> str:
    """`text` without the tags at its start and end, read into `tags`. A bracketed tag
    ("[A+]", "[CCF-A]") goes whatever it says (titles do not begin or end with brackets),
    unless `brackets_only_known`; a parenthesized one only when it is a known tag, since
    titles end with "(Extended Abstract)" or an acronym."""
    while True:
        before = text
        for pattern in (_LEADING_BRACKET, _TRAILING_BRACKET, _TRAILING_PAREN):
            match = pattern.search(text)
            if not match:
                continue
            known = tags.take(match[1], match[0].strip())
            if not known and pattern is not _TRAILING_PAREN and not brackets_only_known:
                tags.notes.append(match[1].strip())
                tags.found.append(match[0].strip())
                known = True
            if known:
                text = (text[: match.start()] + " " + text[match.end() :]).strip()
        if text == before or not text:
            return text
