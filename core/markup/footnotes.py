"""Footnotes as the writer writes them: numbered in the order the text cites them, each
reference and note linking to the other."""

from dataclasses import dataclass, field

from django.utils.translation import gettext

from core.markup.events import Events, escape


@dataclass(kw_only=True)
class Footnotes(Events):
    doc: str = ""  # a short hash of the text, so two texts' notes on one page differ in id
    notes: dict[str, str] = field(default_factory=dict)  # footnote label → its HTML
    note_numbers: dict[str, int] = field(default_factory=dict)
    note_refs: dict[str, int] = field(default_factory=dict)

    def _footnote_definition(self, label: str, i: int) -> int:
        """Keep the note defined at event i (the first, when a label is defined twice);
        the index of the event after it."""
        end = self._matching_end(i)
        self.notes.setdefault(label, "".join(self._block(i + 1, end)))
        return end + 1

    def _footnote_reference(self, label: str) -> str:
        number = self.note_numbers.setdefault(label, len(self.note_numbers) + 1)
        self.note_refs[label] = self.note_refs.get(label, 0) + 1
        count = self.note_refs[label]
        ref = f"fnref-{self.doc}-{number}" + (f"-{count}" if count > 1 else "")
        return (
            f'<sup class="footnote-ref" id="{ref}">'
            f'<a href="#fn-{self.doc}-{number}">{number}</a></sup>'
        )

    def _footnotes(self) -> str:
        """The notes in the order the text first cites them (then those never cited), each
        linking back to every place that cites it."""
        back = escape(gettext("Back to the text"))
        labels = sorted(self.note_numbers, key=self.note_numbers.__getitem__)
        labels += [label for label in self.notes if label not in self.note_numbers]
        items = []
        for label in labels:
            if label not in self.notes:
                continue  # cited, never written: its reference links nowhere
            number = self.note_numbers.get(label)
            body = self.notes[label].strip()
            links = ""
            if number is not None:
                links = " ".join(
                    f'<a href="#fnref-{self.doc}-{number}{"" if n == 1 else f"-{n}"}" '
                    f'class="footnote-backref" aria-label="{back}">↩</a>'
                    for n in range(1, self.note_refs[label] + 1)
                )
            if body.endswith("</p>"):
                body = body[:-4] + f" {links}</p>"
            else:
                body += links
            anchor = f' id="fn-{self.doc}-{number}"' if number is not None else ""
            items.append(f"<li{anchor}>{body}</li>\n")
        return f'<div class="footnotes"><hr><ol>{"".join(items)}</ol></div>\n'
