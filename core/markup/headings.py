"""Headings as the writer writes them: levels shifted under the page's own, unique ids, and
the table of contents a long page's body starts with."""

from dataclasses import dataclass, field

from django.utils.text import slugify
from django.utils.translation import gettext

from core.markup.events import Events, escape

# A table of contents heads a page's body once it has this many headings.
TOC_MIN_HEADINGS = 4
# Ids a heading never takes: the site's page uses some (id="content", the skip link's
# target), and the rest are names a page's own parts may well take.
_RESERVED_IDS = {"content", "main", "top", "menu", "footer", "header"}


@dataclass(kw_only=True)
class Headings(Events):
    first_heading: int  # a text's top heading level becomes this: 3 in a bio, 2 on a page
    toc: bool  # whether a table of contents may head the text
    top_heading: int = 1
    headings: list[tuple[int, str, str]] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)

    def _top_level(self) -> int:
        """The level of the text's top headings (1 for "#"), which becomes first_heading."""
        levels = [
            int(e["Start"]["Heading"]["level"][1])
            for e in self.events
            if "Start" in e and isinstance(e["Start"], dict) and "Heading" in e["Start"]
        ]
        return min(levels, default=1)

    def _heading(self, value: dict, i: int, out: list[str]) -> int:
        end = self._matching_end(i)
        level = min(int(value["level"][1]) - self.top_heading + self.first_heading, 6)
        inner = "".join(self._block(i + 1, end))
        text = " ".join(self._plain(i + 1, end).split())
        wanted = value.get("id") or slugify(text, allow_unicode=True) or "section"
        anchor = self._unique_id(wanted[:80])
        self.headings.append((level, anchor, text))
        out.append(f'<h{level} id="{escape(anchor)}">{inner}</h{level}>\n')
        return end + 1

    def _unique_id(self, wanted: str) -> str:
        anchor, n = wanted, 1
        while anchor in self.ids or anchor in _RESERVED_IDS:
            n += 1
            anchor = f"{wanted}-{n}"
        self.ids.add(anchor)
        return anchor

    def _table_of_contents(self) -> str:
        """The text's headings at its two top levels, as links, nested as they are."""
        top = min(level for level, _a, _t in self.headings)
        items: list[str] = []
        open_sub = False
        for level, anchor, text in self.headings:
            if level > top + 1:
                continue
            link = f'<a href="#{escape(anchor)}">{escape(text)}</a>'
            if level > top and not open_sub and items:
                items[-1] = items[-1].removesuffix("</li>") + "<ol>"
                open_sub = True
            elif level == top and open_sub:
                items.append("</ol></li>")
                open_sub = False
            items.append(f"<li>{link}</li>")
        if open_sub:
            items.append("</ol></li>")
        label = escape(gettext("Contents"))
        return f'<nav class="toc" aria-label="{label}"><ol>{"".join(items)}</ol></nav>\n'
