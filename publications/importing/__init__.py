"""Importing publications from Crossref (records or DOIs), BibTeX files and ORCID works.

Three steps, so the admin page and the command show what will happen before anything is
written, one module each:

1. *read* (`files`, `crossref`, `bibtex` with its vocabulary in `bibtex_fields`, `orcid`,
   over `http`; `titles` and `latex` read tags, markup and LaTeX): a source becomes
   `Record`s (`records`), normalized and type-checked, each saying how it read what was not
   plain, what it kept with the paper and what it left out. A source that cannot be read
   at all raises `ImportProblem`; a record that is readable but unusable carries its
   problems.
2. *plan* (`planning`, with `matching`): each record is matched against the lab (authors to
   people, ORCID first, then name variants, never a guess between two; the work to an
   existing publication by DOI, arXiv id, else title and year; the venue by ISSN, DBLP key,
   then names and aliases) and merged, by `FIELD_RULES` in the mode the caller asks for
   (`MODES`: an import, one taking the source's values, a harvest filling gaps, a published
   version joining its preprint), into the publication it would leave, which the model's
   own rules then check. No writes.
3. *apply* (`applying`, with `core.bulk`): the planned publications are saved as planned, in one
   transaction.

Beside them: `batches` runs network fetches for the admin in the background, and
`citations` refreshes citation counts from OpenAlex.
"""

from publications.importing.applying import apply
from publications.importing.bibtex import read_bibtex
from publications.importing.crossref import CROSSREF_WORKS, fetch_doi, read_crossref_json
from publications.importing.http import HttpClient
from publications.importing.orcid import ORCID_WORKS, read_orcid_works
from publications.importing.planning import (
    ACTIONS,
    ERROR,
    NEW,
    UNCHANGED,
    UPDATE,
    plan,
)
from publications.importing.records import MAX_FILE_BYTES, AuthorRecord, ImportProblem, Record

__all__ = [
    "ACTIONS",
    "CROSSREF_WORKS",
    "ERROR",
    "MAX_FILE_BYTES",
    "NEW",
    "ORCID_WORKS",
    "UNCHANGED",
    "UPDATE",
    "AuthorRecord",
    "HttpClient",
    "ImportProblem",
    "Record",
    "apply",
    "fetch_doi",
    "plan",
    "read_bibtex",
    "read_crossref_json",
    "read_orcid_works",
]
