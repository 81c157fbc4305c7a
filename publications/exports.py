"""Citation exports of publications: BibTeX, RIS and CSL-JSON.

Each format writes one paper at a time (`FORMATS[ext].entry`), from a paper as
`listing.papers` reads it; author names come from the one renderer (`author_list(...,
EXPORT)`), which always gives the full list. `write` joins the entries of papers in hand;
`export` joins the entries the task worker stored (`store`, `ExportEntry`) and writes afresh
only the papers changed since, so a lab-wide export at 10,000 papers reads one query.
"""

import json
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass

import bibtexparser
from anyascii import anyascii
from bibtexparser.middlewares.parsestack import default_unparse_stack
from bibtexparser.model import Entry, Field
from django.db.models import F

from core.weblinks import absolute_site_or_web_url, is_web_url
from publications import listing
from publications.authors import CORRESPONDING, EQUAL, EXPORT, author_list
from publications.models import ExportEntry, Publication, is_family_first, printed_names
from publications.presentation import format_pages

Kind = Publication.Kind

BIBTEX_TYPES = {
    Kind.CONFERENCE: "inproceedings",
    Kind.WORKSHOP: "inproceedings",
    Kind.POSTER: "inproceedings",
    Kind.DEMO: "inproceedings",
    Kind.JOURNAL: "article",
    Kind.THESIS: "phdthesis",
    Kind.CHAPTER: "incollection",
    Kind.BOOK: "book",
    Kind.REPORT: "techreport",
    Kind.PATENT: "patent",  # biblatex's type; BibTeX styles print it as @misc
}
RIS_TYPES = {
    Kind.CONFERENCE: "CPAPER",
    Kind.WORKSHOP: "CPAPER",
    Kind.POSTER: "CPAPER",
    Kind.DEMO: "CPAPER",
    Kind.JOURNAL: "JOUR",
    Kind.PREPRINT: "UNPB",
    Kind.THESIS: "THES",
    Kind.CHAPTER: "CHAP",
    Kind.BOOK: "BOOK",
    Kind.REPORT: "RPRT",
    Kind.PATENT: "PAT",
}
CSL_TYPES = {
    Kind.CONFERENCE: "paper-conference",
    Kind.WORKSHOP: "paper-conference",
    Kind.POSTER: "paper-conference",
    Kind.DEMO: "paper-conference",
    Kind.JOURNAL: "article-journal",
    Kind.PREPRINT: "article",
    Kind.THESIS: "thesis",
    Kind.CHAPTER: "chapter",
    Kind.BOOK: "book",
    Kind.REPORT: "report",
    Kind.PATENT: "patent",
}


@dataclass(frozen=True)
class Format:
    extension: str  # in addresses: export.bib
    label: str  # on links: "BibTeX"
    content_type: str
    entry: Callable  # entry(publication, authors, key) → one paper's text
    rekey: Callable  # rekey(text, key, new key) → the text under the new key
    join: Callable  # join(entries) → the file


_LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
_LATEX_RE = re.compile("|".join(re.escape(c) for c in _LATEX_SPECIALS))


def latex_escape(text):
    """Escape LaTeX specials; Unicode (马腾, Zürich) stays as UTF-8 for biber and bibtex8."""
    return _LATEX_RE.sub(lambda m: _LATEX_SPECIALS[m.group()], text)


def _title(text):
    """Escaped title whose words with inner capitals (KVCache, LLM, CXL-based) are braced, so
    BibTeX styles that lowercase titles leave them alone."""
    words = re.split(r"(\s+)", text)
    return "".join(
        f"{{{latex_escape(w)}}}" if any(c.isupper() for c in w[1:]) else latex_escape(w)
        for w in words
    )


def _ascii_word(text):
    """Lowercase ASCII letters and digits of `text` in any script: "马" → "ma"."""
    return re.sub(r"[^a-z0-9]", "", anyascii(text).lower())


def citation_key(publication, authors):
    """The admin's key, else first author's family name + year + first long title word (a
    patent's number instead: patents have no title words of their own)."""
    if publication.bibtex_key:
        return publication.bibtex_key
    family = _ascii_word(authors[0].family) if authors else ""
    if publication.kind == Kind.PATENT and publication.patent_number:
        word = _ascii_word(publication.patent_number)
    else:
        words = [w for w in re.findall(r"[A-Za-z0-9]+", publication.title) if len(w) > 3]
        word = _ascii_word(words[0]) if words else ""
    return f"{family or 'anon'}{publication.year or ''}{word}" or f"pub{publication.pk}"


GAP = "…"  # a gap's place in a list: what APA prints where it leaves names out
ET_AL = "et al."  # CSL-JSON's last "name" of a list that goes on (see csl_entry)


def _positions(authors):
    """The author list as exports write it, and whether names follow its end: each named
    author at the position they hold, a gap before a named author as None at its own place
    (so a senior author after it stays last, and nobody moves up to first), and a gap at
    the end said by each format's own "et al." (BibTeX's "and others") or a note."""
    names = list(authors.names)
    trailing = False
    while names and names[-1].is_gap:
        names.pop()
        trailing = True
    return [None if name.is_gap else name for name in names], trailing


def _roles(listed):
    """{position: {"equal", "corresponding"}} of the authors in `listed` (as `_positions`
    gives them, gaps counted, as biblatex counts the names of a list) who hold a role."""
    return {
        position: {m.code for m in name.markers}
        for position, name in enumerate(listed, start=1)
        if name is not None and name.markers
    }


def roles_note(authors):
    """The authors' roles as a sentence any reader understands: "Equal contribution: Y Wang,
    T Ma. Corresponding author: Z Su." ("" when nobody holds one)."""
    listed = authors.authors()
    parts = []
    for code, one, many in (
        (EQUAL, "Equal contribution", "Equal contribution"),
        (CORRESPONDING, "Corresponding author", "Corresponding authors"),
    ):
        names = [
            f"{n.given} {n.family}".strip() for n in listed if code in {m.code for m in n.markers}
        ]
        if names:
            parts.append(f"{one if len(names) == 1 else many}: {', '.join(names)}.")
    return " ".join(parts)


INCOMPLETE = "The author list is incomplete."


def _paper_note(publication):
    return publication.note.rstrip(".") + "." if publication.note else ""


def _notes(publication, authors, *, incomplete=False):
    """The note RIS and CSL-JSON carry, which reference managers keep as a note beside the
    citation (Zotero: a child note; Extra): the paper's note, its roles, and, for formats
    that cannot mark an incomplete author list otherwise, that it is incomplete."""
    parts = [_paper_note(publication), roles_note(authors)]
    if incomplete and authors.has_unlisted:
        parts.append(INCOMPLETE)
    return " ".join(p for p in parts if p)


def _name(entry_name, *, sep=", "):
    """ "Family, Given"; with a suffix, BibTeX's "von Last, Jr., First" form."""
    family = entry_name.family
    if entry_name.suffix:
        family = f"{family}{sep}{entry_name.suffix}"
    return f"{family}{sep}{entry_name.given}" if entry_name.given else family


def _ris_name(entry_name):
    """RIS's "Lastname, Firstname, Suffix"."""
    parts = (entry_name.family, entry_name.given, entry_name.suffix)
    return ", ".join(part for part in parts if part)


# al-folio's link fields, written so an al-folio site (and labsite's importer) reads them back.
_ALFOLIO_LINKS = [
    ("code", "code_url"),
    ("slides", "slides_url"),
    ("video", "video_url"),
    ("website", "project_url"),
    ("poster", "poster_url"),
    ("supp", "supplement_url"),
    ("blog", "blog_url"),
    ("dataset", "dataset_url"),
]
# an "other" link an admin labelled as one of al-folio's own
_ALFOLIO_OTHER = {"Poster": "poster", "Blog": "blog", "Supplement": "supp", "Dataset": "dataset"}
_FIELD_NAME = re.compile(r"^[a-z][a-z0-9_:+-]*$")


def bibtex_entry(publication, authors, key):
    """One paper as a BibTeX entry under `key`: its fields in the order readers expect them,
    each step below giving a group of them."""
    entry_type = BIBTEX_TYPES.get(publication.kind, "misc")
    fields = [
        ("title", _title(publication.display_title)),
        *_bibtex_authors(authors),
        *_bibtex_venue(publication, entry_type),
        *_bibtex_date(publication.date),
        *_bibtex_details(publication),
        *_bibtex_notes(publication),
        *_bibtex_links(publication),
        *_bibtex_extras(publication),
    ]
    return _bibtex_written(entry_type, key, fields)


def _bibtex_name(name):
    """One name of an author list (None for a gap) as BibTeX reads it."""
    if name is None:
        return f"{{{GAP}}}"  # braced: one name, printed as it stands (pdflatex reads "…" as UTF-8)
    if name.is_organization:  # a group author braced, else BibTeX takes its last word for a surname
        return f"{{{latex_escape(name.family)}}}"
    if is_family_first(name.given, name.family):
        # a name in Chinese, Japanese or Korean script braced whole, family name first as
        # the script writes it: biblatex would print its parts given name first ("腾 马")
        return f"{{{latex_escape(printed_names(name.given, name.family)[0])}}}"
    return latex_escape(_name(name))


def _bibtex_authors(authors):
    """`author`, and the roles as `author+an`: biblatex's data annotations, which styles can
    print as markers."""
    listed, trailing = _positions(authors)
    names = [_bibtex_name(n) for n in listed]
    if trailing:
        names.append("others")  # BibTeX's own "et al.", which only ends a list
    roles = _roles(listed)
    return [
        ("author", " and ".join(names)),
        ("author+an", "; ".join(f"{p}={','.join(sorted(r))}" for p, r in sorted(roles.items()))),
    ]


# Where each entry type names the book or journal the paper is in.
_BIBTEX_CONTAINER = {
    "article": "journal",
    "inproceedings": "booktitle",
    "incollection": "booktitle",
    "misc": "howpublished",  # a preprint server: "arXiv"
}


def _bibtex_venue(publication, entry_type):
    venue = publication.venue
    container = _BIBTEX_CONTAINER.get(entry_type, "")
    return [
        (container, latex_escape(publication.container_name) if container else ""),
        ("abbr", latex_escape(venue.short_name) if venue else ""),  # al-folio's venue badge
    ]


def _bibtex_date(date):
    if not date:
        return []
    fields = [("year", str(date.year))]
    if date.month:  # BibTeX's own month macros, which styles print
        fields.append(("month", Field("month", _MONTHS[date.month - 1], enclosing="no-enclosing")))
    if date.day:
        fields.append(("day", str(date.day)))
    return fields


def _bibtex_details(publication):
    """Where in its venue the paper is, who published it, and its identifiers."""
    patent = publication.kind == Kind.PATENT
    fields = [
        ("volume", latex_escape(publication.volume)),
        ("number", latex_escape(publication.issue or publication.patent_number)),
        ("pages", latex_escape(format_pages(publication.pages, dash="--"))),
        # a thesis's university is its school, a report's its institution (both required
        # by every style; "publisher" there goes unprinted)
        (
            _BIBTEX_PUBLISHER.get(publication.kind, "publisher"),
            latex_escape(publication.publisher_name),
        ),
        ("series", latex_escape(publication.series)),
        # biblatex's place of a patent is its jurisdiction
        (
            "location" if patent else "address",
            latex_escape(publication.patent_jurisdiction if patent else publication.address),
        ),
        ("doi", _bibtex_verbatim(publication.doi)),
        ("issn", ", ".join(publication.issns)),
    ]
    if publication.arxiv_id:
        fields += [
            ("eprint", _bibtex_verbatim(publication.arxiv_id)),
            ("archiveprefix", "arXiv"),
        ]
    return fields


def _bibtex_notes(publication):
    # The paper's own note alone: biblatex, IEEEtran and natbib styles print `note` in the
    # reference, so a roles sentence there would land in every reader's bibliography. The
    # roles travel in `author+an`, which styles print only when asked to.
    return [
        ("note", latex_escape(_paper_note(publication))),
        ("award_name", latex_escape(publication.award)),
    ]


def _bibtex_links(publication):
    """The paper's page, its PDF, and al-folio's link fields."""
    fields = []
    if is_web_url(publication.url):  # the PDF and the project page have fields of their own
        # a paper read from al-folio whose `html` won over its template's `url` (kept among
        # the source's fields, written below) goes back as `html`, as it came
        displaced = "url" in (publication.source_fields or {})
        fields.append(("html" if displaced else "url", _bibtex_verbatim(publication.url)))
    if is_web_url(publication.pdf_url):
        fields.append(("pdf", _bibtex_verbatim(publication.pdf_url)))
    for name, attribute in _ALFOLIO_LINKS:
        # a link into the site ("/posts/…") leaves it on the site's own address
        link = absolute_site_or_web_url(getattr(publication, attribute))
        fields.append((name, _bibtex_verbatim(link) if link else ""))
    other = _ALFOLIO_OTHER.get(publication.other_label)
    if other and is_web_url(publication.other_url):
        fields.append((other, _bibtex_verbatim(publication.other_url)))
    return fields


def _bibtex_extras(publication):
    """The abstract, al-folio's `selected`, and the fields kept from the source, given back."""
    return [
        ("abstract", latex_escape(publication.abstract)),
        ("selected", "true" if publication.is_selected else ""),
        *(
            (name, latex_escape(value))
            for name, value in sorted((publication.source_fields or {}).items())
            if _FIELD_NAME.match(name) and isinstance(value, str)
        ),
    ]


def _bibtex_written(entry_type, key, fields):
    """The entry of `fields` ((name, text or Field) in order) as BibTeX writes it: empty
    values left out, a name given again (a field kept from the source that the paper now
    fills itself) keeping its first value."""
    entry_fields, used = [], set()
    for name, value in fields:
        if value and name not in used:
            used.add(name)
            entry_fields.append(value if isinstance(value, Field) else Field(name, value))
    library = bibtexparser.Library()
    library.add(Entry(entry_type, key, entry_fields))
    # The library is built for this output alone: written in place, without the deep copy
    # the default stack makes of every entry (5x the time of writing 5,000 entries).
    return bibtexparser.write_string(
        library, unparse_stack=default_unparse_stack(allow_inplace_modification=True)
    )


_BIBTEX_PUBLISHER = {Kind.THESIS: "school", Kind.REPORT: "institution"}
_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]


def _bibtex_verbatim(text):
    """A value BibTeX reads verbatim (DOIs, URLs): braces and backslashes, which no valid
    one holds, percent-encoded so the value can never close its field or run a macro."""
    return text.replace("\\", "%5C").replace("{", "%7B").replace("}", "%7D")


def _ris_value(value):
    """RIS is one tag a line: white space (newlines included) folded, so no value can start
    a line of its own and forge a tag or a second record."""
    return " ".join(str(value).split())


def ris_entry(publication, authors, key):
    """One paper as an RIS record under `key`."""
    venue = publication.venue
    tags = [("TY", RIS_TYPES.get(publication.kind, "GEN")), ("ID", key)]
    tags += [("AU", GAP if n is None else _ris_name(n)) for n in _positions(authors)[0]]
    tags.append(("TI", publication.display_title))
    if publication.container_name:
        tags.append(("T2", publication.container_name))
    if venue:
        tags.append(("J2", venue.short_name))
    if publication.date:
        tags += [("PY", str(publication.date.year)), ("DA", _ris_date(publication.date))]
    tags += [
        ("VL", publication.volume),
        ("IS", publication.issue if publication.kind != Kind.REPORT else ""),
        ("SP", publication.first_page),
        ("EP", publication.last_page),
        ("PB", publication.publisher_name),
        ("CY", publication.address),
        ("T3", publication.series),
        ("DO", publication.doi),
        # where Zotero's RIS reader looks: SN is a patent's or a report's number, a
        # journal's ISSN (and an ISBN for anything else, so no conference's ISSN goes
        # there); C3 a patent's country; PB a thesis's university, a report's institution
        ("SN", _ris_serial_number(publication)),
        ("C3", publication.patent_jurisdiction if publication.kind == Kind.PATENT else ""),
        ("UR", publication.url or publication.doi_url or publication.arxiv_url),
        ("L1", publication.pdf_url),
        ("AB", publication.abstract),
        ("N1", publication.award),
        # RIS has no role or "et al." of its own: a note says both (a gap between named
        # authors is an "…" in its place, which keeps the names after it where they stand)
        ("N1", _notes(publication, authors, incomplete=True)),
    ]
    lines = [f"{tag}  - {_ris_value(value)}" for tag, value in tags if _ris_value(value)]
    return "\n".join([*lines, "ER  - ", ""])


def _ris_serial_number(publication):
    if publication.kind == Kind.PATENT:
        return publication.patent_number
    if publication.kind == Kind.REPORT:
        return publication.issue
    if publication.kind != Kind.JOURNAL:
        return ""
    return ", ".join(publication.issns)


def _ris_date(date):
    month = f"{date.month:02d}" if date.month else ""
    day = f"{date.day:02d}" if date.day else ""
    return f"{date.year}/{month}/{day}/"


def _csl_name(name):
    """CSL's name object: a suffix ("Jr.") in its own "suffix" field."""
    return {"family": name.family, "given": name.given} | (
        {"suffix": name.suffix} if name.suffix else {}
    )


def csl_entry(publication, authors, key):
    """One paper as a CSL-JSON item under `key`, indented as an item of the list."""
    venue = publication.venue
    listed, trailing = _positions(authors)
    item = {
        "id": key,
        "type": CSL_TYPES.get(publication.kind, "document"),
        "title": publication.display_title,
        "author": [
            {"literal": GAP} if n is None else _csl_name(n) if n.given else {"literal": n.family}
            for n in listed
        ],
    }
    if trailing:
        # CSL has no "et al." flag. citeproc-js (Zotero, Mendeley) and citeproc-py print
        # a name as it is written ("others" comes out "& others"; only pandoc's citeproc
        # reads "others" as the style's et-al term), so the list ends in a name that
        # every processor prints as "et al."
        item["author"].append({"literal": ET_AL})
    if publication.date:
        d = publication.date
        item["issued"] = {"date-parts": [[p for p in (d.year, d.month, d.day) if p]]}
    optional = {
        "container-title": publication.container_name,
        "container-title-short": venue.short_name if venue else "",
        "collection-title": publication.series,
        "publisher-place": publication.address,
        "volume": publication.volume,
        "issue": publication.issue if publication.kind != Kind.REPORT else "",
        "page": publication.pages,
        # a thesis's university, a report's institution: CSL's publisher for both
        "publisher": publication.publisher_name,
        # "10,613,992" is one number; citeproc reads commas as a list ("Patent Nos.")
        "number": re.sub(r"(?<=\d),(?=\d{3}\b)", "", publication.patent_number)
        or (publication.issue if publication.kind == Kind.REPORT else ""),  # its report number
        "DOI": publication.doi,
        "ISSN": ", ".join(publication.issns),
        "URL": publication.url or publication.doi_url or publication.arxiv_url,
        "abstract": publication.abstract,
        # CSL has no role: the note says who holds one, and that the list is incomplete
        # (for a reader of the note); a gap between named authors is a literal "…", as
        # APA itself prints one
        "note": " ".join(
            p for p in (publication.award, _notes(publication, authors, incomplete=True)) if p
        ),
    }
    if publication.arxiv_id and publication.kind == Kind.PREPRINT:
        # as styles cite a preprint: its server as publisher, its id as the number; a
        # published paper's arXiv id is no article number of its journal
        optional["number"] = optional["number"] or f"arXiv:{publication.arxiv_id}"
        optional["publisher"] = venue.full_name if venue else "arXiv"
        optional["container-title"] = ""
    item.update({k: v for k, v in optional.items() if v})
    return textwrap.indent(json.dumps(item, ensure_ascii=False, indent=2), "  ")


def _rekey(prefix, suffix):
    """How a format renames an entry: the key where `prefix` + key + `suffix` first stands."""

    def rekey(text, key, new_key):
        return text.replace(f"{prefix}{key}{suffix}", f"{prefix}{new_key}{suffix}", 1)

    return rekey


def _csl_rekey(text, key, new_key):
    return text.replace(f'"id": {json.dumps(key)}', f'"id": {json.dumps(new_key)}', 1)


def _csl_join(items):
    return "[\n" + ",\n".join(items) + "\n]" if items else "[]"


# The export formats, in the order pages link them; views, links and tests read this list.
FORMATS = {
    f.extension: f
    for f in (
        Format(
            "bib",
            "BibTeX",
            "application/x-bibtex; charset=utf-8",
            bibtex_entry,
            _rekey("{", ","),
            "\n\n".join,
        ),
        Format(
            "ris",
            "RIS",
            "application/x-research-info-systems; charset=utf-8",
            ris_entry,
            _rekey("ID  - ", "\n"),
            "\n".join,
        ),
        Format(
            "json",
            "CSL-JSON",
            "application/vnd.citationstyles.csl+json; charset=utf-8",
            csl_entry,
            _csl_rekey,
            _csl_join,
        ),
    )
}


def _built(publications, formats):
    """{paper id: (citation key, {extension: entry})} of `publications` (as
    `listing.papers` gives them), in the `formats` named."""
    built = {}
    for publication in publications:
        authors = author_list(publication, EXPORT)
        key = citation_key(publication, authors.authors())
        texts = {ext: FORMATS[ext].entry(publication, authors, key) for ext in formats}
        built[publication.pk] = (key, texts)
    return built


def _joined(fmt, keyed):
    """The entries `keyed` ((key, text) in order) as one file, a key met again renamed
    `key`b, `key`c, … so that every entry keeps a key of its own."""
    seen: dict[str, int] = {}
    texts = []
    for key, text in keyed:
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 1:
            text = fmt.rekey(text, key, f"{key}{chr(ord('a') + seen[key] - 1)}")
        texts.append(text)
    return fmt.join(texts)


def write(extension, publications):
    """`publications` (as `listing.papers` gives them) in the format `extension`."""
    built = _built(publications, (extension,))
    return _joined(FORMATS[extension], [(key, t[extension]) for key, t in built.values()])


def to_bibtex(publications):
    return write("bib", publications)


def to_ris(publications):
    return write("ris", publications)


def to_csl_json(publications):
    return write("json", publications)


def export(extension, papers):
    """The papers of the queryset `papers`, in its order, in the format `extension`: each
    paper's stored entry (`ExportEntry`), or, where it is missing or older than the paper,
    the paper written afresh (two queries, then four per thousand papers written)."""
    from publications import listing

    rows = list(
        papers.values_list("pk", "updated", "export__stamp", "export__key", f"export__{extension}")
    )
    stale = [pk for pk, updated, stamp, _key, _text in rows if stamp != updated]
    fresh = {}
    for start in range(0, len(stale), _BATCH):
        chosen = Publication.objects.filter(pk__in=stale[start : start + _BATCH])
        fresh.update(_built(listing.papers(chosen, tags=False), (extension,)))
    keyed = [
        (key, text) if stamp == updated else (fresh[pk][0], fresh[pk][1][extension])
        for pk, updated, stamp, key, text in rows
    ]
    return _joined(FORMATS[extension], keyed)


_BATCH = 1000


def store(papers=None):
    """Write the stored entries (`ExportEntry`) of the papers of the queryset `papers` (all
    papers by default) whose entry is missing or out of date, a thousand at a time; returns
    how many. What the task worker runs after a change to papers commits (`tasks.py`)."""
    papers = Publication.objects.all() if papers is None else papers
    stale = list(
        papers.exclude(export__stamp=F("updated")).order_by("pk").values_list("pk", flat=True)
    )
    for start in range(0, len(stale), _BATCH):
        chosen = listing.papers(
            Publication.objects.filter(pk__in=stale[start : start + _BATCH]), tags=False
        )
        built = _built(chosen, FORMATS)
        entries = [
            ExportEntry(publication_id=p.pk, stamp=p.updated, key=built[p.pk][0], **built[p.pk][1])
            for p in chosen
        ]
        ExportEntry.objects.bulk_create(
            entries,
            update_conflicts=True,
            unique_fields=["publication"],
            update_fields=["stamp", "key", *FORMATS],
        )
    return len(stale)
