"""Matching records against the lab: authors to people, works to publications, venues to
venues. No writes; the indexes load only what the records could match."""

import re

from django.db.models import Prefetch

from people.models import Person, normalize_name
from publications.importing.records import AUTHOR_ID_KINDS, AuthorRecord, Kind, Record
from publications.models import Authorship, Publication, Venue, title_key

VENUE_KINDS: dict[str, str] = {
    Kind.JOURNAL: Venue.Kind.JOURNAL,
    Kind.CONFERENCE: Venue.Kind.CONFERENCE,
    Kind.WORKSHOP: Venue.Kind.WORKSHOP,
    Kind.PREPRINT: Venue.Kind.PREPRINT,
    Kind.POSTER: Venue.Kind.CONFERENCE,
    Kind.DEMO: Venue.Kind.CONFERENCE,
    Kind.CHAPTER: Venue.Kind.BOOK,
    Kind.BOOK: Venue.Kind.BOOK,
}
# ("doi", doi), ("arxiv", id) or ("title", title key, year)
WorkKey = tuple[str, str] | tuple[str, str, int | None]
_QUERY_CHUNK = 500  # keys per IN (...) list, well under every database's parameter limit


class PeopleIndex:
    """Lab people by ORCID and by every normalized printed form of their name (one query)."""

    def __init__(self) -> None:
        self.by_orcid: dict[str, Person] = {}
        self.by_id: dict[tuple[str, str], Person] = {}  # ("openalex", "A50…") → member
        self.by_name: dict[str, list[Person]] = {}
        # (given, family, suffix) → candidates: names repeat across a file
        self.seen: dict[tuple[str, str, str], list[Person]] = {}
        for person in Person.objects.all():
            if person.orcid:
                self.by_orcid[person.orcid] = person
            for kind, attribute in AUTHOR_ID_KINDS.items():
                if value := getattr(person, attribute):
                    self.by_id[(kind, value.upper() if kind == "openalex" else value)] = person
            for form in person.name_forms():
                self.by_name.setdefault(form, []).append(person)

    def add(self, person: Person) -> None:
        """A person made since the index was built (a site's import adds them one by one)."""
        if person.orcid:
            self.by_orcid[person.orcid] = person
        for form in person.name_forms():
            self.by_name.setdefault(form, []).append(person)
        self.seen.clear()

    def candidates(self, author: AuthorRecord) -> list[Person]:
        """Identifiers first (ORCID, then the author's ids at OpenAlex, DBLP, Semantic
        Scholar), then the printed name with its variants."""
        if author.orcid and author.orcid in self.by_orcid:
            return [self.by_orcid[author.orcid]]
        for key in author.ids.items():
            if key in self.by_id:
                return [self.by_id[key]]
        name = (author.given, author.family, author.suffix)
        if name not in self.seen:
            self.seen[name] = self._by_name(author)
        return self.seen[name]

    def _by_name(self, author: AuthorRecord) -> list[Person]:
        forms = {
            normalize_name(f"{author.given} {author.family}"),
            normalize_name(f"{author.given} {author.family} {author.suffix}"),
            normalize_name(f"{author.family}, {author.given}"),
            normalize_name(f"{author.family} {author.given}"),
            normalize_name(f"{author.family}{author.given}"),
        }
        # by id(): a site's import adds people before they are written (no pk yet)
        found = {id(p): p for form in forms for p in self.by_name.get(form, [])}
        return list(found.values())

    def match(self, record: Record) -> None:
        for author in record.authors:
            if author.is_unlisted:
                continue
            candidates = self.candidates(author)
            author.person = candidates[0] if len(candidates) == 1 else None
            author.candidates = candidates if len(candidates) > 1 else []
        # Two authors of one paper cannot be the same person: flag both, guess neither.
        linked = [a for a in record.authors if a.person and not (a.orcid or a.ids)]
        twins = [a for a in linked if sum(b.person == a.person for b in linked) > 1]
        for author in twins:
            author.candidates = [author.person]
            author.person = None


def work_keys(
    doi: str, arxiv_id: str, title: str, year: int | None, patent: str = ""
) -> list[WorkKey]:
    """The keys a work is recognised by, strongest first: DOI, arXiv id, a patent's number,
    title and year."""
    keys: list[WorkKey] = [("doi", doi)] if doi else []
    if arxiv_id:
        keys.append(("arxiv", arxiv_id))
    if patent:
        keys.append(("patent", patent))
    if title:
        keys.append(("title", title_key(title), year))
    return keys


def record_keys(record: Record) -> list[WorkKey]:
    year = record.date.year if record.date else None
    patent = record.patent_number if record.kind == Kind.PATENT else ""
    keys = work_keys(record.doi, record.arxiv_id, record.title, year, patent)
    return keys or [("title", "", year)]


class WorkIndex:
    """The existing publications the records could be (by DOI, arXiv id or title key), with
    their authors: a few indexed queries, however many publications the lab has."""

    def __init__(self, records: list[Record]) -> None:
        wanted: dict[str, set[str]] = {
            "doi": set(),
            "arxiv": set(),
            "patent": set(),
            "title": set(),
        }
        for record in records:
            for key in record_keys(record):
                if key[1]:
                    wanted[key[0]].add(key[1])
        columns = {
            "doi": "doi",
            "arxiv": "arxiv_id",
            "patent": "patent_number",
            "title": "title_key",
        }
        found: dict[int, Publication] = {}
        authors = Prefetch("authorships", queryset=Authorship.objects.order_by("position"))
        for kind, values in wanted.items():
            ordered = sorted(values)
            for start in range(0, len(ordered), _QUERY_CHUNK):
                chunk = ordered[start : start + _QUERY_CHUNK]
                query = Publication.objects.filter(**{f"{columns[kind]}__in": chunk})
                for publication in query.prefetch_related(authors):
                    found.setdefault(publication.pk, publication)
        self.by_key: dict[WorkKey, Publication] = {}
        for publication in sorted(found.values(), key=lambda p: p.pk):
            patent = publication.patent_number if publication.kind == Kind.PATENT else ""
            keys = work_keys(
                publication.doi, publication.arxiv_id, publication.title, publication.year, patent
            )
            for key in keys:
                self.by_key.setdefault(key, publication)

    def find(self, record: Record) -> Publication | None:
        for key in record_keys(record):
            if key in self.by_key:
                return self.by_key[key]
        return None


_PROCEEDINGS = re.compile(r"^(?:the\s+)?(?:proceedings|proc\.?)\s+(?:of\s+)?(?:the\s+)?", re.I)
_ORDINAL = re.compile(r"\b\d+(?:st|nd|rd|th)\b", re.I)
_YEAR = re.compile(r"(?:\b(?:19|20)\d{2}\b|['’]\d{2}\b)")
_ACRONYM = re.compile(r"\(([A-Za-z][\w/&+-]*)(?:\s*['’]?\s*\d{2,4})?\)")


def venue_form(text: str) -> str:
    """A venue name reduced to what identifies it: "Proceedings of the 18th USENIX Symposium
    on … (OSDI '24)" and "USENIX Symposium on …" compare equal; so do "SOSP '24" and "sosp"."""
    text = _ACRONYM.sub(" ", text or "")
    text = _PROCEEDINGS.sub("", text.strip())
    text = _YEAR.sub(" ", _ORDINAL.sub(" ", text))
    return " ".join(re.sub(r"[\W_]+", " ", text.casefold()).split())


_EDITION_WORDS = re.compile(r"\b(?:vol(?:ume)?|part|no)\b\.?\s*[\dIVXLC]+", re.I)


def series_name(text: str) -> str:
    """The series a proceedings or journal title names, as a venue's full name: "Proceedings
    of the 18th USENIX Symposium on … (OSDI '24)" → "USENIX Symposium on …"; "" when what is
    left still names one edition (a place, a date, a volume)."""
    name = _ACRONYM.sub(" ", text or "")
    name = _PROCEEDINGS.sub("", name.strip())
    name = _YEAR.sub(" ", _ORDINAL.sub(" ", name))
    name = " ".join(name.split()).strip(" ,:;-–—")
    name = re.sub(r"^[A-Z][A-Z0-9/&+-]+\s*[-–—:]\s+(?=\w)", "", name)  # "ICASSP - IEEE …"
    if re.search(r"\d", name) or _EDITION_WORDS.search(name) or len(name) > 300:
        return ""
    return name


def _acronyms(text: str) -> list[str]:
    return [m[1] for m in _ACRONYM.finditer(text or "")]


class VenueIndex:
    """Existing venues by their identifiers (ISSN, DBLP key) and by every form of their
    names (short name, full name, aliases). A record naming none of them gets a new, unsaved
    venue, shared by every record of the import that names it, for the preview to flag."""

    def __init__(self) -> None:
        self.by_issn: dict[str, Venue] = {}
        self.by_dblp: dict[str, Venue] = {}
        self.by_form: dict[str, Venue] = {}
        self.new: dict[str, Venue] = {}
        for venue in Venue.objects.all():
            for issn in venue.issns():
                self.by_issn.setdefault(issn.upper(), venue)
            if venue.dblp_key:
                self.by_dblp.setdefault(venue.dblp_key.lower(), venue)
            for name in venue.names():
                self.by_form.setdefault(venue_form(name), venue)

    def find(self, record: Record) -> Venue | None:
        """The venue `record` appeared in, existing or new (unsaved); None if it names none."""
        if not (record.venue_name or record.venue_short):
            return None
        for issn in record.issns:
            if issn in self.by_issn:
                return self.by_issn[issn]
        if record.venue_key and record.venue_key in self.by_dblp:
            return self.by_dblp[record.venue_key]
        names = [record.venue_short, *_acronyms(record.venue_name), record.venue_name]
        for name in names:
            form = venue_form(name)
            if form and form in self.by_form:
                return self.by_form[form]
            if form and form in self.new:
                return self.new[form]
        return self._new_venue(record)

    def _new_venue(self, record: Record) -> Venue | None:
        """A venue for the series the record names. Its name is the series' own, without
        the edition's year or ordinal ("Proceedings of the 29th …" is the paper's title, kept
        with the paper), or none when the name says only one edition. A record naming no
        short name, with a name too long to be one, gets no venue: the paper keeps its
        title, and nothing is cut."""
        acronym = next(iter(_acronyms(record.venue_name)), "")
        name = series_name(record.venue_name)
        short = record.venue_short or acronym or name
        if not short or len(short) > (Venue._meta.get_field("short_name").max_length or 0):
            return None
        venue = Venue(
            short_name=short,
            name=name if name.casefold() != short.casefold() else "",
            kind=VENUE_KINDS.get(record.kind, Venue.Kind.OTHER),
            publisher=record.publisher if record.kind != Kind.PREPRINT else "",
            issn=", ".join(record.issns),
            dblp_key=record.venue_key,
        )
        for text in (record.venue_short, record.venue_name, acronym):
            if venue_form(text):
                self.new.setdefault(venue_form(text), venue)
        return venue
