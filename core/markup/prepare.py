"""A text as the parser reads it: what it writes in the ways of LaTeX and Python-Markdown,
which CommonMark does not know, read first."""

import re

_ABBREVIATION = re.compile(r"\*\[([^\]\n]{1,40})\]:[ \t]*([^\n]{1,200})")
_MAX_ABBREVIATIONS = 50
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_BRACKET_MATH = re.compile(r"\\[()]|`+")


def prepare(source: str) -> tuple[str, dict[str, str]]:
    """The text as the parser reads it, and its abbreviations. Two things written in the
    ways of LaTeX and Python-Markdown, which CommonMark does not know, are read first, line
    by line outside code blocks: `\\(…\\)` formulas become `$…$` (the parser's own math),
    and `*[KV]: key-value` lines are taken out as abbreviations. One pass, linear."""
    if "\\(" not in source and "*[" not in source:
        return source, {}
    lines: list[str] = []
    abbreviations: dict[str, str] = {}
    fence = None
    for line in source.split("\n"):
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened[1][0] == fence[0] and len(opened[1]) >= len(fence):
                fence = None
            lines.append(line)
            continue
        if opened:
            fence = opened[1]
            lines.append(line)
            continue
        if line.startswith("*[") and (found := _ABBREVIATION.fullmatch(line.strip())):
            if len(abbreviations) < _MAX_ABBREVIATIONS:
                abbreviations[found[1]] = found[2].strip()
            continue
        lines.append(_bracket_math(line) if "\\(" in line else line)
    return "\n".join(lines), abbreviations


def _bracket_math(line: str) -> str:
    """A line's `\\(…\\)` formulas as `$…$`, outside its code spans: each opening paired
    with the next closing, in one scan."""
    parts, last, opening, code = [], 0, None, None
    for found in _BRACKET_MATH.finditer(line):
        token, at = found[0], found.start()
        if token.startswith("`"):
            if code is None:
                code = token
            elif token == code:
                code = None
            continue
        if code is not None or _escaped(line, at):
            continue
        if token == "\\(":
            opening = at
        elif opening is not None:
            tex = line[opening + 2 : at].strip()
            if tex and "$" not in tex:
                parts.append(line[last:opening] + f"${tex}$")
                last = at + 2
            opening = None
    return "".join(parts) + line[last:]


def _escaped(text: str, at: int) -> bool:
    """Whether the character at `at` follows an odd run of backslashes."""
    count = 0
    while at - count - 1 >= 0 and text[at - count - 1] == "\\":
        count += 1
    return count % 2 == 1
