"""Property-based fuzzing of the Crossref, BibTeX and ORCID readers (Hypothesis): whatever
the input, each record ends valid or with a clean problem, nothing raises, and the dry run's
verdict is what the real run does."""

import json
import os

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from publications import importing
from publications.models import Publication
from tests import factories
from tests.publications.recorded import RecordedClient

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", 120)),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Text a hostile or broken source may hold: LaTeX specials, CJK, control characters, long runs.
nasty_text = st.one_of(
    st.text(max_size=40),
    st.text(alphabet="{}\\$~%&#_^ aéZ马\n\t\x00", max_size=60),
    st.sampled_from(["x" * 600, "马" * 150, "javascript:alert(1)//.pdf", "10.1145/../x", ""]),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**31), max_value=10**31),
    st.floats(allow_nan=False),
    nasty_text,
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(nasty_text, inner, max_size=4),
    max_leaves=12,
)
CROSSREF_KEYS = [
    "DOI", "title", "subtitle", "type", "container-title", "short-container-title", "ISSN",
    "issued", "published-print", "volume", "issue", "page", "publisher", "abstract",
    "is-referenced-by-count", "indexed", "author",
]  # fmt: skip
date_parts = st.fixed_dictionaries(
    {"date-parts": st.lists(st.lists(st.integers(-5, 10**6) | scalars, max_size=4), max_size=2)}
)
authors = st.lists(
    st.one_of(
        st.fixed_dictionaries(
            {},
            optional={
                "given": scalars,
                "family": scalars,
                "name": scalars,
                "ORCID": scalars,
                "affiliation": json_values,
            },
        ),
        json_values,
    ),
    max_size=4,
)
crossref_works = st.fixed_dictionaries(
    {"title": st.lists(nasty_text, min_size=1, max_size=2), "author": authors},
    optional={
        **dict.fromkeys(set(CROSSREF_KEYS) - {"title", "author"}, json_values),
        "issued": date_parts | json_values,
        "DOI": st.sampled_from(["10.1145/3773772", "10.1145/42"]) | json_values,
        "is-referenced-by-count": st.integers(-3, 2**40) | json_values,
    },
)


def _dry_then_real(read):
    """Read, plan and count (the dry run); then read, plan and apply for real, inside a
    transaction rolled back afterwards. Returns (announced, done)."""
    with transaction.atomic():
        plans = importing.plan(read())
        for plan in plans:
            assert all(isinstance(p, str) and p for p in plan.problems)
        announced = {action: sum(p.action == action for p in plans) for action in importing.ACTIONS}
        before = Publication.objects.count()
        summary = importing.apply(importing.plan(read()), skip_invalid=True)
        done = {
            importing.NEW: summary.created,
            importing.UPDATE: summary.updated,
            importing.UNCHANGED: summary.unchanged,
            importing.ERROR: summary.failed,
        }
        assert Publication.objects.count() - before == summary.created
        for publication in Publication.objects.all():
            publication.full_clean(validate_unique=False)  # what was written obeys the model
        transaction.set_rollback(True)
    return announced, done


@pytest.fixture
def existing(db):
    return factories.authored(None, ["A Author"], at=0, doi="10.1145/42", title="Existing")


@FUZZ
@given(work=crossref_works)
def test_crossref_reader_never_raises_and_the_dry_run_predicts_the_write(existing, work):
    text = json.dumps({"message": work})

    announced, done = _dry_then_real(lambda: importing.read_crossref_json(text))

    assert announced == done


@FUZZ
@given(message=json_values)
def test_crossref_reader_handles_any_json_shape(message):
    try:
        records = importing.read_crossref_json(json.dumps({"message": message}))
    except importing.ImportProblem:
        return  # the whole file refused with a message: a clean outcome
    announced, done = _dry_then_real(lambda: records)
    assert announced == done


BIBTEX_FIELDS = [
    "title", "author", "journal", "booktitle", "year", "month", "doi", "url", "pages",
    "eprint", "archiveprefix", "abstract", "publisher", "volume", "number", "date",
]  # fmt: skip
bibtex_fields = st.dictionaries(st.sampled_from(BIBTEX_FIELDS), nasty_text, max_size=10)
entry_types = st.sampled_from(["article", "inproceedings", "misc", "book", "patent", "weird"])


@FUZZ
@given(entries=st.lists(st.tuples(entry_types, bibtex_fields), min_size=1, max_size=4))
def test_bibtex_reader_never_raises_and_the_dry_run_predicts_the_write(existing, entries):
    text = "\n".join(
        f"@{kind}{{key{n},\n"
        + ",\n".join(f"  {name} = {{{value}}}" for name, value in fields.items())
        + "\n}"
        for n, (kind, fields) in enumerate(entries)
    )

    def read():
        try:
            return importing.read_bibtex(text)
        except importing.ImportProblem:
            return []

    announced, done = _dry_then_real(read)

    assert announced == done


@pytest.fixture
def orcid_person(db):
    return factories.PersonFactory(name="Teng Ma", orcid="0000-0002-7104-1526")


orcid_groups = st.lists(
    st.one_of(
        json_values,
        st.fixed_dictionaries(
            {
                "work-summary": st.lists(
                    st.fixed_dictionaries(
                        {},
                        optional={
                            "title": st.fixed_dictionaries(
                                {"title": st.fixed_dictionaries({"value": scalars})}
                            )
                            | json_values,
                            "type": scalars,
                            "journal-title": json_values,
                            "publication-date": json_values,
                            "external-ids": json_values,
                            "put-code": scalars,
                        },
                    )
                    | json_values,
                    max_size=2,
                )
            }
        ),
    ),
    max_size=4,
)


@FUZZ
@given(groups=orcid_groups)
def test_orcid_reader_never_raises_and_the_dry_run_predicts_the_write(orcid_person, groups):
    person = orcid_person
    client = RecordedClient({importing.ORCID_WORKS.format(orcid=person.orcid): {"group": groups}})

    announced, done = _dry_then_real(lambda: importing.read_orcid_works(person, client))

    assert announced == done
