"""Tables as the writer writes them: each cell aligned as its column's header line says."""

from dataclasses import dataclass

from core.markup.events import Events

_ALIGN = {"Left": "align-left", "Center": "align-center", "Right": "align-right"}


@dataclass(kw_only=True)
class Tables(Events):
    table_head: bool = False  # whether the cells being read are the header's
    alignments: tuple = ()  # the open table's columns' alignments, as the parser names them
    cell: int = 0  # the column of the cell being read

    def _cell(self) -> str:
        tag = "th" if self.table_head else "td"
        align = self.alignments[self.cell] if self.cell < len(self.alignments) else "None"
        return f'<{tag} class="{_ALIGN[align]}">' if align in _ALIGN else f"<{tag}>"
