"""LaTeX in BibTeX values read to Unicode, by pylatexenc (bibtexparser's own decoder) within
a per-import budget, and without it for values that hold only braces and escaped symbols."""

import re

from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latexwalker import LatexWalker, get_default_latex_context_db

from publications.importing.records import ImportProblem

# Decoding LaTeX costs 2 µs a character for titles with protective braces and up to 6 µs
# for math and macros: one import decodes at most this much (a few seconds at worst), so a
# hostile file cannot hold a worker for minutes. A real 5,000-entry .bib has less (values
# repeat, each is decoded once, and numbers, DOIs and URLs are not decoded at all).
MAX_LATEX_CHARS = 1_000_000

_LATEX_TEXT = LatexNodes2Text()
_LATEX_CONTEXT = get_default_latex_context_db()
# LaTeX that only pylatexenc reads: ties, math, dashes, quotes, and macros other than the
# control symbols below. A value without it holds at most protective braces and escaped
# symbols ("{RDMA} Memory \\& Storage"), which `_BRACES_AND_SYMBOLS` reads the way
# pylatexenc does (a property test holds the two equal), thousands of times faster.
_NEEDS_PYLATEXENC = re.compile(r"[~$]|--|''|``|[!?]`|\\[^&%$#_{}]|\\$")
_BRACES_AND_SYMBOLS = re.compile(r"\\([&%$#_{}])|[{}]")
# A bare % or & in a BibTeX value is the character (BibTeX does not treat it specially;
# LaTeX would read a comment or a table column): escaped before decoding.
_BARE_SYMBOL = re.compile(r"(?<!\\)([%&])")


class LatexDecoder:
    """LaTeX to Unicode ("M{\\\"u}ller" → "Müller", "12--24" → "12–24", "speed~up" with a
    no-break space, "50%" stays "50%") as pylatexenc reads it. Values holding nothing but
    protective braces and escaped symbols are read without it, to the same text; each
    other distinct value is decoded once, counting against `budget` characters, and past
    it `decode` raises ImportProblem."""

    def __init__(self, budget: int | None = None) -> None:
        self.budget = MAX_LATEX_CHARS if budget is None else budget
        self.cache: dict[str, str] = {}
        self.names: dict[str, tuple[str, str, str]] = {}  # as written → (given, family, suffix)

    def decode(self, value: str) -> str:
        """The text of `value`; ValueError when its LaTeX cannot be read."""
        if not _NEEDS_PYLATEXENC.search(value):
            if "{" not in value and "}" not in value and "\\" not in value:
                return value  # plain text, as most abstracts and names are
            return _BRACES_AND_SYMBOLS.sub(lambda match: match[1] or "", value)
        if value in self.cache:
            return self.cache[value]
        self.budget -= len(value)
        if self.budget < 0:
            raise ImportProblem(
                f"This file holds more LaTeX markup than one import decodes (over "
                f"{MAX_LATEX_CHARS:,} characters of it); split it into smaller files."
            )
        text = self.cache[value] = pylatexenc_text(value)
        return text


def pylatexenc_text(value: str) -> str:
    """`value` read by pylatexenc, bare % and & being characters; ValueError when its
    LaTeX cannot be read."""
    try:
        latex = _BARE_SYMBOL.sub(r"\\\1", value)
        walker = LatexWalker(latex, latex_context=_LATEX_CONTEXT, tolerant_parsing=True)
        return str(_LATEX_TEXT.nodelist_to_text(walker.get_latex_nodes()[0]))
    except (RecursionError, IndexError, KeyError, TypeError, ValueError) as error:
        raise ValueError("its LaTeX cannot be read") from error
