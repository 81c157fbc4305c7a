"""A BibTeX entry's field values as the reader takes them: raw, LaTeX decoded, as numbers, and
under the names BibTeX means; a value that cannot be read is said in the entry's record."""

import re

from bibtexparser.model import Entry

from publications.importing import bibtex_fields as fields_of
from publications.importing.latex import LatexDecoder
from publications.importing.records import Record, squash


class EntryValues:
    """The values of one entry's fields (lower-case names, first values), for the reader
    (`bibtex._EntryReader`), which sets `record` and `fields` when it starts on an entry."""

    record: Record
    fields: dict[str, str]

    def __init__(
        self, entry: Entry, label: str, latex: LatexDecoder, markers: dict[str, str]
    ) -> None:
        self.entry = entry
        self.label = label
        self.latex = latex
        self.markers = markers

    def raw(self, name: str) -> str:
        value = self.fields.get(name)
        return value.strip() if value else ""

    def text(self, name: str, *, one_line: bool = True) -> str:
        """The field's text, LaTeX decoded; white space folded unless not `one_line`."""
        raw = self.raw(name)
        if not raw:
            return ""
        try:
            value = self.latex.decode(raw)
        except ValueError:
            self.record.problems.append(f"the LaTeX in its {name} cannot be read")
            return ""
        if one_line:
            return squash(value)
        return "\n\n".join(squash(p) for p in re.split(r"\n\s*\n", value) if squash(p))

    def _number(self, name: str) -> str:
        """Numbers and ranges are not LaTeX text: "12--24" needs no decoder for "12–24"."""
        value = squash(self.raw(name).strip("{}"))
        if value.casefold() in fields_of.PLACEHOLDERS.get(name, ()):
            self.record.dropped.append(f"{name} “{value}”: a placeholder, not stored")
            return ""
        return value

    def _canonical(self, given: dict[str, str]) -> dict[str, str]:
        """Field names as BibTeX means them: misspellings read as the field they stand for
        (said in the preview), unless the entry also has that field."""
        fields = {k: v for k, v in given.items() if k not in fields_of.ALIASES}
        for alias, name in fields_of.ALIASES.items():
            if alias not in given:
                continue
            if name in fields or not given[alias].strip():
                fields[f"{alias}"] = given[alias]  # kept as it is: the real field is there
            else:
                fields[name] = given[alias]
                self.record.readings.append(f"“{alias}” read as {name}")
        return fields
