"""The site's search: every public page as a document of weighted terms (core/search_text.py),
kept current through the one path for change (core/changes.py), and found by a query that
costs the same on SQLite and PostgreSQL: the documents of a few terms, through the index
on (term, document), grouped and ranked in one statement.

Why this rather than each database's full-text search: SQLite's FTS5 finds no one- or
two-character Chinese query with its trigram tokenizer and stems nothing with the others;
PostgreSQL's parsers do not split Chinese either. The terms here are the same on both
databases (stems, folded accents, CJK characters and pairs), so a query finds the same
results on the embedded default and in production, and the index needs no extension.

A document says, per language, the title and text a result shows and its address. Every
section of the registry (lab/sections.py) with rows is searched: its public rows, each read
as a title, a summary and a body, unless SEARCHED below says more of it (its builder, and its
rows when they are not the section's public ones)."""

import datetime
import logging
import re
from collections.abc import Callable
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field

from django.conf import settings
from django.db import (
    DEFAULT_DB_ALIAS,
    DatabaseError,
    connection,
    connections,
    models,
    transaction,
)
from django.db.migrations.executor import MigrationExecutor
from django.db.models import (
    Case,
    Count,
    ExpressionWrapper,
    F,
    FloatField,
    IntegerField,
    Max,
    Prefetch,
    Value,
    When,
    Window,
)
from django.urls import get_script_prefix, reverse, set_script_prefix
from django.utils import timezone, translation
from django.utils.functional import Promise
from django_tasks import task
from translated_fields import to_attribute

from core import after_commit, search_text
from core.changes import CREATED, writes
from lab import sections
from labsite.models import SearchDocument, SearchTerm
from people.models import NewsItem, Person
from publications.models import Authorship, Publication, Venue
from tags.models import Tag
from talks.models import Award, Recipient, Speaker, Talk
from website.models import Course, CourseTeacher, Opening, Post, PostAuthor

logger = logging.getLogger(__name__)

PER_PAGE = 20
MAX_PAGE = 25  # past 500 results, a visitor refines the query
TITLE, NAME, DETAIL, BODY = 10, 5, 2, 1  # the weights of the fields a term is in
MAX_TYPOS = 20  # vocabulary terms one query word may stand for
# A change of at most this many documents is indexed as it commits (an admin's save is
# searchable when its page is); a larger one (an import, a harvest, a restore) by the task
# worker, so that no request waits on thousands of documents.
INLINE_DOCUMENTS = 50
BATCH = 500  # documents read and written a statement
TERMS_PER_STATEMENT = 2000  # 6,000 parameters: within SQLite's and PostgreSQL's limits
LANGUAGES = [code for code, _name in settings.LANGUAGES]
# What a document written over an older one of the same key takes from the new one.
UPDATED = ["kind", "titles", "texts", "urls", "date", "shown_from", "boost"]


@dataclass
class Document:
    row: models.Model
    titles: dict[str, str]
    fields: list[tuple[str, int]]  # (text, weight) searched
    url: Callable[[], str]  # the address, called in each language
    texts: dict[str, str] = field(default_factory=dict)
    date: datetime.date | None = None
    shown_from: datetime.date | None = None
    boost: float = 1.0
    kind: str = ""  # its section's key in the registry (lab/sections.py)


def _in_languages(row, name):
    return {code: getattr(row, to_attribute(name, code)) or "" for code in LANGUAGES}


def _all(texts):
    return " ".join(dict.fromkeys(t for t in texts.values() if t))


_MARKUP = re.compile(r"!?\[([^\]\n]{0,500})\]\([^)\n]{0,2000}\)|[#*_>`~|]+|<[^<>\n]{0,500}>")


def _plain(markdown):
    """Markdown's text without its marks, for excerpts and terms (links keep their words)."""
    return _MARKUP.sub(lambda m: m.group(1) or " ", markdown)


def _day(partial):
    return partial.first_day() if partial else None


def _person(row):
    names = [row.name, row.native_name, *row.name_variants.splitlines()]
    return Document(
        row,
        {
            code: row.name + (f" ({row.native_name})" if row.native_name else "")
            for code in LANGUAGES
        },
        [
            (" ".join(names), TITLE),
            (_all(_in_languages(row, "research_interests")), DETAIL),
            (
                _all(_in_languages(row, "title")) + " " + _all(_in_languages(row, "affiliation")),
                DETAIL,
            ),
            (_all(_in_languages(row, "tagline")), DETAIL),
            (_plain(_all(_in_languages(row, "bio"))), BODY),
        ],
        row.get_absolute_url,
        texts={c: _plain(t) for c, t in _in_languages(row, "bio").items()},
        boost=0.8 if row.is_alumnus else 1.0,
    )


def _publication(row):
    listed = [a for a in row.authorships.all() if not a.is_unlisted]
    written = ", ".join(f"{a.given_name} {a.family_name}".strip() for a in listed)
    # the names as written, and a linked member's own names (T Ma is Teng Ma, 马腾)
    authors = (
        written
        + " "
        + " ".join(f"{a.person.name} {a.person.native_name}" for a in listed if a.person_id)
    )
    # the venue's name, and the container's title where it says more (often the same words)
    venue = " ".join(
        dict.fromkeys(filter(None, [row.venue.name if row.venue else "", row.container_title]))
    )
    return Document(
        row,
        dict.fromkeys(LANGUAGES, row.display_title),
        [
            (row.display_title, TITLE),
            (authors, NAME),
            (" ".join(filter(None, [venue, row.doi, row.arxiv_id])), DETAIL),
            (_plain(row.abstract), BODY),
        ],
        row.get_absolute_url,
        texts=dict.fromkeys(LANGUAGES, f"{written} · {venue}" if venue else written),
        date=_day(row.date),
    )


def _people_of(rows):
    return " ".join(r.person.name if r.person_id else getattr(r, "name", "") for r in rows)


def _post(row):
    return Document(
        row,
        _in_languages(row, "title"),
        [
            (_all(_in_languages(row, "title")), TITLE),
            (_people_of(row.authors.all()), NAME),
            (_all(_in_languages(row, "summary")), DETAIL),
            (_plain(_all(_in_languages(row, "body"))), BODY),
        ],
        row.get_absolute_url,
        texts={c: _plain(t) for c, t in _in_languages(row, "body").items()},
        date=row.date,
        shown_from=row.date,
    )


def _written(body="body", detail="summary", dated=None):
    """A builder for the lab's written things: a title, a summary, a Markdown body."""

    def build(row):
        return Document(
            row,
            _in_languages(row, "title"),
            [
                (_all(_in_languages(row, "title")), TITLE),
                (_all(_in_languages(row, detail)) if detail else "", DETAIL),
                (_plain(_all(_in_languages(row, body))), BODY),
            ],
            row.get_absolute_url,
            texts={c: _plain(t) for c, t in _in_languages(row, body).items()},
            date=dated(row) if dated else None,
        )

    return build


def _talk(row):
    speakers = _people_of(row.speakers.all())
    where = " ".join(filter(None, [row.event, row.host, row.city, row.country]))
    return Document(
        row,
        _in_languages(row, "title"),
        [
            (_all(_in_languages(row, "title")), TITLE),
            (speakers, NAME),
            (where, DETAIL),
            (_plain(row.description), BODY),
        ],
        row.get_absolute_url if row.has_page else lambda: reverse("talks:list"),
        texts=dict.fromkeys(LANGUAGES, f"{speakers} · {where}"),
        date=_day(row.date),
    )


def _award(row):
    recipients = _people_of(row.recipients.all())
    return Document(
        row,
        _in_languages(row, "name"),
        [
            (_all(_in_languages(row, "name")), TITLE),
            (recipients, NAME),
            (" ".join(filter(None, [row.awarded_by, row.detail])), DETAIL),
        ],
        lambda: reverse("talks:awards"),
        texts=dict.fromkeys(LANGUAGES, " · ".join(filter(None, [recipients, row.awarded_by]))),
        date=_day(row.date),
    )


def _news(row):
    texts = {c: _plain(t) for c, t in _in_languages(row, "text").items()}
    return Document(
        row,
        {c: search_text.excerpt(t, set(), 90) for c, t in texts.items()},
        [(_all(texts), BODY), (row.person.name if row.person_id else "", NAME)],
        lambda: reverse("news"),
        texts=texts,
        date=_day(row.date),
    )


def _course(row):
    teachers = _people_of(row.teachers.all())
    return Document(
        row,
        _in_languages(row, "title"),
        [
            (_all(_in_languages(row, "title")) + " " + row.code, TITLE),
            (teachers, NAME),
            (
                _all(_in_languages(row, "term")) + " " + _all(_in_languages(row, "institution")),
                DETAIL,
            ),
            (_plain(_all(_in_languages(row, "description"))), BODY),
        ],
        row.get_absolute_url,
        texts={c: _plain(t) for c, t in _in_languages(row, "description").items()},
    )


def _tag(row):
    names = _in_languages(row, "name")
    return Document(
        row,
        names,
        [(_all(names), TITLE)],
        row.get_absolute_url,
        texts={c: _all(names) for c in LANGUAGES},
    )


def _tags_in_use():
    from labsite.pages.tags import tags_in_use  # the pages' rule: a tag with a page

    return tags_in_use()


def _with_people(relation, part):
    """A row's people through `part` (authorships, speakers...), read with their people in
    one query, not two: a round trip less in every admin save's indexing."""
    return Prefetch(relation, part.objects.select_related("person"))


@dataclass(frozen=True)
class Searched:
    """How a section's rows read as documents: the builder, and the rows, when they are
    not the section's public ones as the registry says (lab/sections.py), or when the
    builder reads more than the row (its people, its venue)."""

    build: Callable[[models.Model], Document]
    rows: Callable[[], models.QuerySet] | None = None


# The sections whose pages read as more than a title and a Markdown body; every other
# section of the registry with rows is searched as one (_written: title, summary, body).
SEARCHED = {
    "people": Searched(_person),
    "publications": Searched(
        _publication,
        lambda: (
            Publication.objects.published()
            .select_related("venue")
            .prefetch_related(_with_people("authorships", Authorship))
        ),
    ),
    "talks": Searched(
        _talk,
        lambda: Talk.objects.published().prefetch_related(_with_people("speakers", Speaker)),
    ),
    "awards": Searched(
        _award,
        lambda: Award.objects.published().prefetch_related(_with_people("recipients", Recipient)),
    ),
    "news": Searched(_news, lambda: NewsItem.objects.published().select_related("person")),
    # every published post: a dated one is found from its day on (shown_from)
    "posts": Searched(
        _post,
        lambda: Post.objects.filter(is_published=True).prefetch_related(
            _with_people("authors", PostAuthor)
        ),
    ),
    # a closed opening keeps its page, and search finds it (the sitemap names the open ones)
    "openings": Searched(_written("description", ""), lambda: Opening.objects.published()),
    "teaching": Searched(
        _course,
        lambda: Course.objects.published().prefetch_related(
            _with_people("teachers", CourseTeacher)
        ),
    ),
    "tags": Searched(_tag, _tags_in_use),  # a tag's page, while something published carries it
    "pages": Searched(_written(detail="")),
}


def _documents():
    """{model: (its searched rows, its builder, its section's key)} for every section of
    the registry with rows, in the registry's order (the order a rebuild writes them in)."""
    documents = {}
    for section in sections.SECTIONS:
        searched = SEARCHED.get(section.key) or Searched(_written())
        rows = searched.rows
        if rows is None:
            if section.rows is None:
                continue
            rows = section.rows.public_rows
        documents[rows().model] = (rows, searched.build, section.key)
    return documents


DOCUMENTS = _documents()
# What a result says it is: the registry's name for one row of its section.
KIND_LABELS = {section.key: section.item or section.label for section in sections.SECTIONS}
# A row of these changes what its parent's document says: (the parent's model, the field).
PARTS = {
    Authorship: (Publication, "publication_id"),
    PostAuthor: (Post, "post_id"),
    Speaker: (Talk, "talk_id"),
    Recipient: (Award, "award_id"),
    CourseTeacher: (Course, "course_id"),
}


def _key(model, pk):
    return f"{model._meta.label_lower}:{pk}"


# ---- keeping the index current -------------------------------------------------------------

_pending: dict[type[models.Model], set] = {}


@writes("labsite.SearchDocument", "labsite.SearchTerm")
def rows_changed(model, rows, using, how):
    """core/changes.py's follower: the documents of the changed rows (or of the rows they
    are part of) are rebuilt when the change commits. `rows` holds None when which rows
    changed is not known (then every row of the model). A person's name is also in their
    papers, posts and talks (a person just created has none). The rows of a bulk insert
    come together, and what they need looked up is looked up once for all of them, not
    once a row."""
    known = [row for row in rows if row is not None]
    if known:
        model = type(known[0])  # a many-to-many change names its table; the row its model
    if model in PARTS:
        # parts inserted in bulk (rows not known): their parents are saved in the same import
        parent, attribute = PARTS[model]
        _queue(using, parent, {getattr(row, attribute) for row in known})
    elif model is Venue:
        _queue(using, Publication, _values(Publication, "venue", known, "pk"))
    elif model in DOCUMENTS:
        _queue(using, model, {row.pk for row in known} | ({None} if None in rows else set()))
        if model in _TAGGED:
            _queue(using, Tag, _tags_of(model, known, everything=None in rows))
        if model is Person and how != CREATED:  # a new person is in nothing yet
            for part, parent in [(Authorship, Publication), (PostAuthor, Post), (Speaker, Talk)]:
                _queue(using, parent, _values(part, "person", known, PARTS[part][1]))


def _queue(using, model, pks):
    """The documents of `model`'s rows `pks` (None among them: every row) rebuilt once the
    change commits."""
    if pks:
        _pending.setdefault(model, set()).update(pks)
        after_commit.once(flush, using=using)


def _values(model, field_name, rows, column):
    """`column` of the rows of `model` whose `field_name` is one of `rows` (a query for each
    500 of them)."""
    found: set = set()
    for start in range(0, len(rows), 500):
        chunk = rows[start : start + 500]
        found.update(
            model.objects.filter(**{f"{field_name}__in": chunk}).values_list(column, flat=True)
        )
    return found


# Tagged models: a change of one of their rows (tags added or taken away, published or
# not) may give its tags a page or take it away.
_TAGGED = {relation.related_model for relation in Tag.tagged_relations()}


def _tags_of(model, rows, everything):
    """The tags whose documents follow a change of `rows` of the tagged `model`: theirs (a
    query for each 500, which also tells whether the rows are still there). The many-to-many
    signals come before a removal too, so a tag taken away is among them; a deleted row has
    lost its tags already, and then every tag's document is rebuilt ({None})."""
    if everything:
        return {None}
    relation = next(r for r in Tag.tagged_relations() if r.related_model is model)
    pks = [row.pk for row in rows]
    found = set()
    for start in range(0, len(pks), 500):
        found.update(
            model.objects.filter(pk__in=pks[start : start + 500]).values_list(
                "pk", relation.field.name
            )
        )
    if {pk for pk, _tag in found} != set(pks):
        return {None}
    return {tag for _pk, tag in found if tag is not None}


def flush():
    """Rebuilds the documents of the rows changed since the last flush (each change queues
    a flush when it commits; the first does the work, the others find nothing): when they
    are few, as soon as the response of the request that changed them is sent (an editor's
    save waits only for its page, and the next request on this worker finds them written),
    else by the task worker."""
    if _pending:
        after_commit.after_response(_flush_now)


def _flush_now():
    if not _pending:
        return
    changed = {model: None if None in pks else sorted(pks) for model, pks in _pending.items()}
    _pending.clear()
    if any(pks is None for pks in changed.values()) or (
        sum(len(pks) for pks in changed.values() if pks) > INLINE_DOCUMENTS
    ):
        index_later.enqueue({model._meta.label: pks for model, pks in changed.items()})
        return
    try:
        for model, pks in changed.items():
            if pks:
                index(model, pks)
    except DatabaseError:
        # The content committed: its save stands. Its documents are the worker's to write
        # (again, in full), and the failure is logged, never the editor's error page.
        logger.exception("Search index: writing %s failed; the task worker retries", changed)
        index_later.enqueue({model._meta.label: pks for model, pks in changed.items()})


@task()
def index_later(changed: dict[str, list[int] | None]) -> int:
    """The task worker's part: the documents of the rows `changed` names ({"app.Model": ids,
    or None for every row}), rebuilt. Returns how many rows were read."""
    models_by_label = {model._meta.label: model for model in DOCUMENTS}
    for label, pks in changed.items():
        if label in models_by_label:
            index(models_by_label[label], pks)
    return sum(len(pks) for pks in changed.values() if pks)


def index(model, pks=None):
    """Rebuilds the documents of `model`'s rows `pks` (all when None): published rows are
    (re)written, the others removed."""
    rows_of, builder, kind = DOCUMENTS[model]

    def build(row):
        document = builder(row)
        document.kind = kind
        return document

    if pks is None:
        with _index_transaction():
            _delete("key LIKE %s", [f"{model._meta.label_lower}:%"])
            batch: list[Document] = []
            for row in rows_of().iterator(chunk_size=BATCH):
                batch.append(build(row))
                if len(batch) == BATCH:
                    _write_batch(batch)
                    batch = []
            _write_batch(batch)
        return
    # A few rows (an admin's save): read as a list, not through a server-side cursor, and
    # written over their old documents in one transaction (one round trip to PostgreSQL).
    for start in range(0, len(pks), BATCH):
        chunk = pks[start : start + BATCH]
        documents = [build(row) for row in rows_of().filter(pk__in=chunk)]
        shown = {document.row.pk for document in documents}
        _run(_replacing(documents, gone=[_key(model, pk) for pk in chunk if pk not in shown]))


_NO_WAIT = "SET LOCAL synchronous_commit TO OFF"


@contextmanager
def _index_transaction():
    """A transaction for the index's own writes. On PostgreSQL its commit does not wait for
    the disk (synchronous_commit off, for this transaction only): the index is derived from
    content whose own commit did wait, and a server crash in the next fraction of a second
    can lose these writes, never corrupt them; `manage.py rebuild_search_index` makes them
    again (docs/production.md). A commit that waits took 2-4 ms here, more than a tenth of
    an admin's save on its own."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(_NO_WAIT)
        yield


def _run(statements):
    """`statements` ([(sql, params)]) in one transaction of the index's. On PostgreSQL they
    go in one call, so in one round trip (Django's psycopg cursor binds parameters on the
    client, which lets one call carry several statements), with the transaction's own
    BEGIN and COMMIT when none is open: an admin's save waited on nine round trips for its
    document before, three now (the row, its people, this)."""
    if not statements:
        return
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        with _index_transaction(), connection.cursor() as cursor:
            for sql, params in statements:
                cursor.execute(sql, params)
        return
    sql = "; ".join(["BEGIN", _NO_WAIT, *(sql for sql, _params in statements), "COMMIT"])
    with connection.cursor() as cursor:
        try:
            cursor.execute(sql, [value for _sql, params in statements for value in params])
        except Exception:
            # PostgreSQL skips what follows a failed statement of the call, and keeps the
            # transaction open, failed: it is ended here, and the error raised
            with suppress(DatabaseError):
                cursor.execute("ROLLBACK")
            raise


def _delete(where, params):
    """Documents and their terms removed in two statements (the ORM's delete would read
    every term row first, to send signals nobody needs for an index)."""
    documents = f"SELECT id FROM labsite_searchdocument WHERE {where}"
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM labsite_searchterm WHERE document_id IN ({documents})", params)
        cursor.execute(f"DELETE FROM labsite_searchdocument WHERE {where}", params)


def _placeholders(count, width=None):
    """`count` placeholders, or `count` rows of `width` (VALUES)."""
    one = "%s" if width is None else f"({', '.join(['%s'] * width)})"
    return ", ".join([one] * count)


def _write_batch(documents):
    """Writes `documents` and their terms into an index that holds none of them (a rebuild:
    many documents, their ids back from one bulk insert)."""
    rows = _rows(documents)
    SearchDocument.objects.bulk_create(rows)  # ids come back (RETURNING, on both databases)
    ids = {row.key: row.pk for row in rows}
    terms = [(term, ids[key], weight) for key, term, weight in _terms(rows, documents)]
    # Plain tuples, no model instance per term, many rows a statement.
    with connection.cursor() as cursor:
        for start in range(0, len(terms), TERMS_PER_STATEMENT):
            chunk = terms[start : start + TERMS_PER_STATEMENT]
            cursor.execute(
                "INSERT INTO labsite_searchterm (term, document_id, weight) "
                f"VALUES {_placeholders(len(chunk), 3)}",
                [value for term in chunk for value in term],
            )


def _replacing(documents, gone):
    """The statements that write `documents` over the documents of the same keys and remove
    the documents of `gone`. Only what changed is written: the terms a document no longer
    has are removed, its new ones added, a weight that changed updated, and the rest left
    in place (an edit of a few words writes a few rows, not a few hundred, and leaves as
    few dead rows behind). The terms find their document by its key, so nothing waits for
    an id to come back."""
    statements = []
    if gone:
        statements.append(
            (
                "DELETE FROM labsite_searchterm WHERE document_id IN (SELECT id FROM "
                f"labsite_searchdocument WHERE key IN ({_placeholders(len(gone))}))",
                gone,
            )
        )
        statements.append(
            (f"DELETE FROM labsite_searchdocument WHERE key IN ({_placeholders(len(gone))})", gone)
        )
    rows = _rows(documents)
    if not rows:
        return statements
    columns = ["key", *UPDATED]
    fields = [_concrete(SearchDocument, name) for name in columns]
    statements.append(
        (
            f"INSERT INTO labsite_searchdocument ({', '.join(columns)}) "
            f"VALUES {_placeholders(len(rows), len(columns))} ON CONFLICT (key) DO UPDATE SET "
            + ", ".join(f"{name} = excluded.{name}" for name in UPDATED),
            [
                field.get_db_prep_save(getattr(row, field.attname), connection)
                for row in rows
                for field in fields
            ],
        )
    )
    terms = _terms(rows, documents)
    for row in rows:
        kept = [term for key, term, _weight in terms if key == row.key]
        statements.append(
            (
                "DELETE FROM labsite_searchterm WHERE document_id = (SELECT id FROM "
                "labsite_searchdocument WHERE key = %s)"
                + (f" AND term NOT IN ({_placeholders(len(kept))})" if kept else ""),
                [row.key, *kept],
            )
        )
    for start in range(0, len(terms), TERMS_PER_STATEMENT):
        chunk = terms[start : start + TERMS_PER_STATEMENT]
        statements.append(
            (
                f"WITH incoming (key, term, weight) AS (VALUES {_placeholders(len(chunk), 3)}) "
                "INSERT INTO labsite_searchterm (term, document_id, weight) "
                "SELECT incoming.term, document.id, incoming.weight FROM incoming "
                "JOIN labsite_searchdocument document ON document.key = incoming.key "
                "WHERE true "  # SQLite reads ON CONFLICT after a join's ON only so
                "ON CONFLICT (term, document_id) DO UPDATE SET weight = excluded.weight "
                "WHERE labsite_searchterm.weight <> excluded.weight",
                [value for term in chunk for value in term],
            )
        )
    return statements


def _concrete(model, name) -> models.Field:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)  # a column, not a relation's other side
    return field


def _rows(documents):
    """The SearchDocument rows of `documents` (unsaved), their addresses in each language
    kept from the site's root and shown under the prefix the page is served with (find)."""
    prefix = get_script_prefix()
    set_script_prefix("/")
    try:
        urls_of = []
        for document in documents:
            urls = {}
            for code in LANGUAGES:
                with translation.override(code):
                    urls[code] = document.url()
            urls_of.append(urls)
    finally:
        set_script_prefix(prefix)
    return [
        SearchDocument(
            key=_key(type(document.row), document.row.pk),
            kind=document.kind,
            titles=document.titles,
            texts={c: t[:2000] for c, t in document.texts.items()},
            urls=urls,
            date=document.date,
            shown_from=document.shown_from,
            boost=document.boost,
        )
        for document, urls in zip(documents, urls_of, strict=True)
    ]


def _terms(rows, documents):
    """(document key, term, weight) of each term of `documents`: the weight of the
    heaviest field it is in."""
    terms = []
    for row, document in zip(rows, documents, strict=True):
        weights: dict[str, int] = {}
        for text, weight in document.fields:
            for term in search_text.terms(text):
                weights[term] = max(weight, weights.get(term, 0))
        terms += [(row.key, term, weight) for term, weight in weights.items()]
    return terms


@writes("labsite.SearchDocument", "labsite.SearchTerm")
def schema_changed(model, using=DEFAULT_DB_ALIAS):
    """core/changes.py's follower of a change of every model (a migrate; a change of one
    model's rows is rows_changed's): a site upgraded to the release that brought search (or
    whose index was lost) gets its index built once, when it has content and no index yet."""
    if model is not None:
        return
    executor = MigrationExecutor(connections[using])
    if executor.migration_plan(executor.loader.graph.leaf_nodes()):
        return  # a schema short of the latest (a restore on its way, a rollback): not yet
    if not SearchDocument.objects.using(using).exists() and any(
        each.objects.exists() for each in DOCUMENTS
    ):
        rebuild()


def rebuild():
    """Every document afresh (after a restore, an upgrade, or on a lab admin's word)."""
    with _index_transaction():
        _delete("1 = 1", [])
        for model in DOCUMENTS:
            index(model)
    _pending.clear()


# ---- finding ---------------------------------------------------------------------------------


@dataclass
class Result:
    kind: str
    kind_label: str | Promise  # the registry's label, in the page's language
    title: list[tuple[str, bool]]  # pieces, the matched ones marked
    excerpt: list[tuple[str, bool]]
    url: str
    date: datetime.date | None


@dataclass
class Results:
    query: search_text.Query
    results: list[Result]
    total: int
    page: int

    @property
    def pages(self):
        return min(MAX_PAGE, -(-self.total // PER_PAGE))


def _known(terms):
    """Those of `terms` some document has: one statement, an index probe a term (a list of
    words against the postings, as `term IN (...)`, may be read as a pass over all of them)."""
    if not terms:
        return set()
    terms = sorted(terms)
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH asked (term) AS (VALUES {_placeholders(len(terms), 1)}) "
            "SELECT term FROM asked WHERE EXISTS "
            "(SELECT 1 FROM labsite_searchterm WHERE labsite_searchterm.term = asked.term)",
            terms,
        )
        return {term for (term,) in cursor.fetchall()}


def _with_typos(query):
    """The query's groups kept to the terms some document has. A word of five letters or
    more that no document has may be a typo: its group takes the known terms one edit away
    (at most MAX_TYPOS), asked in one more statement. A group left with no term finds
    nothing, and then neither does the query: it is answered without reading a posting (a
    visitor's string of unknown words costs a probe a word, not a pass over the postings of
    the words it does share with the index)."""
    known = _known(query.terms)
    query.groups = [group & known for group in query.groups]
    unknown = {i: w for i, w in query.typo_words.items() if not query.groups[i]}
    if unknown:
        candidates = {i: search_text.one_edit_away(word) for i, word in unknown.items()}
        found = _known(set().union(*candidates.values()))
        for i, edits in candidates.items():
            query.groups[i] |= set(sorted(edits & found)[:MAX_TYPOS])
    return query


def row_pks(model, text, limit=500):
    """The ids of `model`'s rows whose documents match `text` (the admin's search box)."""
    query = search_text.parse(text)
    if not query or model not in DOCUMENTS:
        return []
    query = _with_typos(query)
    if not all(query.groups):
        return []
    prefix = f"{model._meta.label_lower}:"
    matches = _matching(query).filter(document__key__startswith=prefix)
    keys = SearchDocument.objects.filter(pk__in=matches.values("document")[:limit])
    return [int(key.removeprefix(prefix)) for key in keys.values_list("key", flat=True)]


def _matching(query, today=None):
    """The (document, group weights) rows of the documents with a term of every group."""
    terms = SearchTerm.objects.filter(term__in=query.terms)
    if today:
        terms = terms.exclude(document__shown_from__gt=today)
    groups = {
        f"g{i}": Max(
            Case(When(term__in=group, then=F("weight")), default=Value(0)),
            output_field=IntegerField(),
        )
        for i, group in enumerate(query.groups)
    }
    matches = terms.values("document", "document__boost", "document__date").annotate(**groups)
    return matches.filter(**{f"g{i}__gt": 0 for i in range(len(groups))})


def find(text, page=1, today=None):
    """The page `page` of the results for `text`: documents with a term of every group,
    ranked by the sum of each group's best field weight, times the document's boost; then
    newest first. Two queries (four with a typo): the page's ranks with the count, its
    rows."""
    query = search_text.parse(text)
    page = max(1, min(page, MAX_PAGE))
    if not query:
        return Results(query, [], 0, page)
    query = _with_typos(query)
    if not all(query.groups):
        return Results(query, [], 0, page)
    today = today or timezone.localdate()
    matches = _matching(query, today)
    groups = [f"g{i}" for i in range(len(query.groups))]
    score = ExpressionWrapper(
        sum((F(name) for name in groups), Value(0)) * F("document__boost"),
        output_field=FloatField(),
    )
    start = (page - 1) * PER_PAGE
    ranked = matches.annotate(score=score).order_by(
        "-score", F("document__date").desc(nulls_last=True), "document"
    )
    # The count comes with the page (a window over the matched documents): one pass over
    # the terms, not two. A page past the last counts apart.
    shown = list(ranked.annotate(total=Window(Count("*")))[start : start + PER_PAGE])
    ids = [row["document"] for row in shown]
    total = shown[0]["total"] if shown else (matches.count() if start else 0)
    documents = SearchDocument.objects.in_bulk(ids)
    language = translation.get_language() or LANGUAGES[0]
    marked_terms = query.terms
    prefix = get_script_prefix().removesuffix("/")
    results = []
    for document in (documents[pk] for pk in ids):
        title = document.titles.get(language) or next(
            (t for t in document.titles.values() if t), ""
        )
        text = document.texts.get(language) or next((t for t in document.texts.values() if t), "")
        results.append(
            Result(
                document.kind,
                KIND_LABELS.get(document.kind, document.kind),
                search_text.marked(title, marked_terms),
                search_text.marked(search_text.excerpt(text, marked_terms), marked_terms),
                prefix + (document.urls.get(language) or next(iter(document.urls.values()), "/")),
                document.date,
            )
        )
    return Results(query, results, total, page)
