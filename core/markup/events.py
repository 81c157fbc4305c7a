"""What the writer's parts share: one text's parser events, the problems found reading
them, and HTML escaping."""

import html as html_lib
from dataclasses import dataclass, field


def escape(text: str) -> str:
    return html_lib.escape(text, quote=True)


@dataclass(kw_only=True)
class Events:
    """The events pulldown-cmark made of one text, read by index. The writer (writer.py)
    walks them once; its parts (headings, footnotes, images, code, formulas, tables) look
    ahead for an element's end and its plain text, and write what an element holds through
    the same walk."""

    events: list = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def _block(self, start: int, end: int) -> list[str]:
        """The HTML of events start..end: the writer's walk (writer.Writer)."""
        raise NotImplementedError

    def _matching_end(self, i: int) -> int:
        depth = 0
        for j in range(i, len(self.events)):
            event = self.events[j]
            if "Start" in event:
                depth += 1
            elif "End" in event:
                depth -= 1
                if depth == 0:
                    return j
        return len(self.events) - 1

    def _plain(self, start: int, end: int) -> str:
        """The text of events start..end, without markup (an image's alt, a heading's)."""
        parts = []
        for event in self.events[start:end]:
            if "SoftBreak" in event or "HardBreak" in event:
                parts.append(" ")
            for name in ("Text", "Code", "InlineMath"):
                if name in event:
                    parts.append(event[name])
        return "".join(parts)
