"""Reading what an admin or the command hands in: a file (BibTeX or Crossref JSON), or a
line that is a DOI."""

import re
from pathlib import Path

from publications.importing.bibtex import read_bibtex
from publications.importing.crossref import read_crossref_json
from publications.importing.records import MAX_FILE_BYTES, ImportProblem, Record

_DOI_LIKE = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)?10\.\S+$", re.IGNORECASE)


def looks_like_doi(text: str) -> bool:
    return bool(_DOI_LIKE.match(text.strip()))


def read_file_text(name: str, data: bytes, kind: str = "") -> list[Record]:
    """Records from an uploaded or local file: BibTeX (.bib) or Crossref JSON (.json).

    The kind is taken from the content when the name does not say. Refuses files over the
    size cap and files that are not UTF-8 text.
    """
    if len(data) > MAX_FILE_BYTES:
        raise ImportProblem(
            f"{name} is {len(data) / 1024 / 1024:.1f} MB; import files may be at most "
            f"{MAX_FILE_BYTES // 1024 // 1024} MB."
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportProblem(f"{name} is not UTF-8 text.") from None
    suffix = f".{kind}" if kind else Path(name).suffix.lower()
    if suffix == ".json" or (suffix != ".bib" and text.lstrip().startswith("{")):
        return read_crossref_json(text, name)
    return read_bibtex(text, name)
