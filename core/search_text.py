"""Text as the site's search reads it: the same words for what is indexed, what a visitor
types and what a lab admin types in the admin's search, in English and Chinese.

- Latin script: case and accents folded ("Müller" → "muller"), English words stemmed with
  the Snowball stemmer ("serving", "served" → "serv"), a few function words left out.
- Chinese, Japanese and Korean: no spaces between words, and what people type is one or two
  characters (马, 马腾). Each character is a term, and so is each pair of neighbours
  (马腾科 → 马, 腾, 科, 马腾, 腾科): a query of one character finds it alone, a longer one
  finds its pairs in order, as Pagefind and PostgreSQL's bigram indexes do.
- A query is bounded: its length, the number of terms, the words a typo may stand for.

Everything here is linear in its input: one regular expression pass without backtracking
(character classes only), then per-token work."""

import functools
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field

import snowballstemmer

MAX_QUERY = 200  # characters of a query read; the rest is ignored
MAX_TERMS = 8  # groups of terms a query is made of; more words add nothing
MAX_TERM = 64  # characters of an indexed term (a DOI's digits, a long identifier)
TYPO_FROM = 5  # a word of this many letters or more may be found with one edit
# ... and of at most this many, in at most this many words of a query: a word's edits are
# about 54 a letter, each a term asked for, so a 200-letter word asked 10,800 (1.3 s)
TYPO_UP_TO = 24
TYPO_WORDS = 3

# The scripts written without spaces: Han (with its extensions and compatibility forms),
# Hiragana, Katakana, Hangul.
_CJK = (
    "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
    "\U00020000-\U0002a6df\U0002a700-\U0002ebef\U00030000-\U0003134f"
)
_TOKENS = re.compile(rf"([{_CJK}]+)|([^\W{_CJK}_]+)")
_STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "has",
        "have",
        "in",
        "is",
        "it",
        "of",
        "on",
        "or",
        "that",
        "the",
        "this",
        "to",
        "was",
        "were",
        "will",
        "with",
    ]
)
_stemmer = snowballstemmer.stemmer("english")


@functools.lru_cache(maxsize=50_000)
def _stem(word: str) -> str:
    return _stemmer.stemWord(word)[:MAX_TERM]


def fold(text: str) -> str:
    """Compatibility forms unified (full-width letters, ligatures), case and accents folded."""
    text = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in text if not unicodedata.combining(c))


@dataclass
class Token:
    """A run of one script in a text: its place in the text as written, and its terms."""

    start: int
    end: int
    terms: list[str] = field(default_factory=list)


def _cjk_terms(run: str) -> list[str]:
    return list(run) + [run[i : i + 2] for i in range(len(run) - 1)]


def tokens(text: str) -> Iterator[Token]:
    """The words and CJK runs of `text`, with their offsets in `text` itself (accents are
    folded per word, so offsets stay those of the text as written)."""
    for match in _TOKENS.finditer(text):
        run, word = match.group(1), match.group(2)
        if run:
            yield Token(match.start(), match.end(), _cjk_terms(run))
            continue
        found = _word_terms(word)
        if found:
            yield Token(match.start(), match.end(), list(found))


@functools.lru_cache(maxsize=100_000)
def _word_terms(word: str) -> tuple[str, ...]:
    """A word's terms (its folded parts, stemmed; none for a function word), worked out
    once per distinct word: a lab's texts repeat their words."""
    folded = word.lower() if word.isascii() else fold(word)
    if folded in _STOP:
        return ()
    return tuple(t for t in (_stem(part) for part in re.findall(r"\w+", folded)) if t)


def terms(text: str) -> set[str]:
    """Every term of `text`, as indexed (tokens() without the offsets)."""
    found: set[str] = set()
    for run, word in _TOKENS.findall(text):
        found.update(_cjk_terms(run) if run else _word_terms(word))
    return found


@dataclass
class Query:
    """What a visitor typed, as groups of terms: a result has a term of every group. A word
    is a group of its stem (and, once the vocabulary is known, the stems one typo away);
    a CJK run of one character is that character, a longer run its neighbouring pairs."""

    text: str
    groups: list[set[str]]
    typo_words: dict[int, str]  # group index → the folded word a typo may stand for

    def __bool__(self) -> bool:
        return bool(self.groups)

    @property
    def terms(self) -> set[str]:
        return set().union(*self.groups) if self.groups else set()


def parse(text: str) -> Query:
    """The query a visitor's text makes, bounded (MAX_QUERY characters, MAX_TERMS groups)."""
    text = " ".join(text[:MAX_QUERY].split())
    groups: list[set[str]] = []
    typo_words: dict[int, str] = {}
    for match in _TOKENS.finditer(text):
        run, word = match.group(1), match.group(2)
        typo = ""
        if run:
            pairs = [run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)]
            candidates = [{pair} for pair in pairs]
        else:
            folded = fold(word)
            if folded in _STOP:
                continue
            parts = [p for p in re.findall(r"\w+", folded) if p]
            candidates = [{_stem(p)} for p in parts]
            if (
                len(parts) == 1
                and TYPO_FROM <= len(parts[0]) <= TYPO_UP_TO
                and parts[0].isalpha()
                and len(typo_words) < TYPO_WORDS
            ):
                typo = parts[0]
        for group in candidates:
            if group not in groups and len(groups) < MAX_TERMS:
                if typo:
                    typo_words[len(groups)] = typo
                groups.append(group)
    return Query(text, groups, typo_words)


def one_edit_away(word: str) -> set[str]:
    """The stems of every word one edit from `word` (a letter deleted, added, changed, or
    two neighbours swapped), Latin letters only: the stems a typo may stand for. About
    54 × len(word) words, each stemmed once."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    edits = {a + b[1:] for a, b in splits if b}
    edits |= {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    edits |= {a + c + b[1:] for a, b in splits if b for c in letters}
    edits |= {a + c + b for a, b in splits for c in letters}
    edits.discard(word)
    return {_stem(edit) for edit in edits}


def marked(text: str, query_terms: set[str]) -> list[tuple[str, bool]]:
    """`text` cut into (piece, matched) pieces: each word whose term the query has, and
    each CJK character the query has, is matched (the view marks them with <mark>)."""
    pieces: list[tuple[str, bool]] = []
    at = 0
    cjk = {char for term in query_terms if _is_cjk(term) for char in term}
    for token in tokens(text):
        segment = text[token.start : token.end]
        if _is_cjk(segment):
            pieces.append((text[at : token.start], False))
            pieces += [(char, char in cjk) for char in segment]
            at = token.end
        elif query_terms.intersection(token.terms):
            pieces += [(text[at : token.start], False), (segment, True)]
            at = token.end
    pieces.append((text[at:], False))
    return [(piece, hit) for piece, hit in pieces if piece]


def _is_cjk(text: str) -> bool:
    return bool(re.match(rf"[{_CJK}]", text))


def excerpt(text: str, query_terms: set[str], width: int = 220) -> str:
    """About `width` characters of `text` around its first matched word."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    first = next(
        (t.start for t in tokens(text) if query_terms.intersection(t.terms)),
        0,
    )
    start = max(0, min(first - width // 4, len(text) - width))
    if start:
        space = text.find(" ", start, start + 20)
        start = space + 1 if space != -1 else start
    end = start + width
    return ("… " if start else "") + text[start:end].rstrip() + (" …" if end < len(text) else "")
