"""One merge rule for the plan and the apply: what a preview announces is what is written,
nothing a source lacks is cleared, and an admin's edits are kept unless they take the
source's values."""

import datetime
import json

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.partial_dates import PartialDate
from publications import importing
from publications.importing.planning import FIELD_RULES, GROUPS
from publications.models import Publication
from tests import factories
from tests.publications.recorded import TOS_DOI, tos_record

pytestmark = pytest.mark.django_db

BIBTEX_OF_TOS = """@article{qin2026mooncake,
  title = {Mooncake: A {KVCache}-centric Disaggregated Architecture for {LLM} Serving},
  author = {Qin, Ruoyu and Li, Zheming and He, Weiran and Cui, Jialei and Tang, Heyi and
            Ren, Feng and Ma, Teng and Cai, Shangming and Zhang, Yineng and Zhang, Mingxing and
            Wu, Yongwei and Zheng, Weimin and Xu, Xinran},
  journal = {ACM Transactions on Storage},
  year = {2026},
  doi = {10.1145/3773772}
}"""


def _import(records, **options):
    plans = importing.plan(records, **options)
    importing.apply(plans)
    return plans


def _crossref():
    return importing.read_crossref_json(json.dumps(tos_record()))


def test_crossref_then_bibtex_keeps_the_count_and_everything_bibtex_lacks():
    _import(_crossref())
    before = Publication.objects.get(doi=TOS_DOI)

    (plan,) = importing.plan(importing.read_bibtex(BIBTEX_OF_TOS))
    importing.apply([plan])
    (again,) = importing.plan(importing.read_bibtex(BIBTEX_OF_TOS))

    paper = Publication.objects.get(doi=TOS_DOI)
    assert plan.changes == ["bibtex_key"]  # all the BibTeX entry adds
    assert again.action == importing.UNCHANGED and again.changes == []
    assert (paper.citation_count, paper.citations_read_on, paper.citations_source) == (
        27,
        datetime.date(2026, 10, 7),
        "Crossref",
    )
    assert (paper.volume, paper.issue, paper.pages) == (before.volume, before.issue, before.pages)
    assert paper.abstract == before.abstract and paper.publisher == before.publisher


def test_an_admins_edit_is_kept_and_shown_unless_they_take_the_source():
    _import(_crossref())
    paper = Publication.objects.get(doi=TOS_DOI)
    paper.title = "Mooncake (ToS version)"
    paper.save()

    (plan,) = importing.plan(_crossref())
    assert (plan.action, plan.kept) == (importing.UNCHANGED, ["title"])

    _import(_crossref(), take_source=True)
    paper.refresh_from_db()
    assert paper.title.startswith("Mooncake: A KVCache-centric")


def test_a_value_typed_before_any_import_is_the_admins():
    paper = factories.authored(None, ["R Qin"], at=0, doi=TOS_DOI, title="Mooncake", volume="99")

    (plan,) = _import(_crossref())

    paper.refresh_from_db()
    assert "volume" in plan.kept and paper.volume == "99"
    assert "issue" in plan.changes and paper.issue == "4"  # empty fields are filled


# ---- the property: random imports from different sources and admin edits

FIELD_VALUES = {
    "title": st.sampled_from(["Mooncake", "Mooncake: KVCache", "Mooncake (revised)"]),
    "volume": st.sampled_from(["", "22", "23"]),
    "issue": st.sampled_from(["", "4"]),
    "pages": st.sampled_from(["", "1–38", "1–40"]),
    "publisher": st.sampled_from(["", "ACM", "Association for Computing Machinery"]),
    "abstract": st.sampled_from(["", "An abstract.", "Another abstract."]),
    "date": st.sampled_from([None, "2026", "2026-08"]),
    "kind": st.sampled_from(["journal", "conference"]),
    "citation_count": st.sampled_from([None, 3, 27]),
}
records = st.fixed_dictionaries(
    {},
    optional={
        **FIELD_VALUES,
        "family": st.sampled_from(["Qin", "Ma"]),
        "source": st.sampled_from(["Crossref", "BibTeX"]),
    },
)
edits = st.fixed_dictionaries(
    {"field": st.sampled_from(sorted(FIELD_VALUES)), "value": st.integers(0, 2)}
)
steps = st.lists(
    st.one_of(
        st.tuples(st.just("import"), records, st.booleans()),
        st.tuples(st.just("edit"), edits, st.just(False)),
    ),
    min_size=1,
    max_size=8,
)


def _record(values):
    record = importing.Record(label="generated", doi=TOS_DOI)
    for name in FIELD_VALUES:
        value = values.get(name)
        if name == "date" and value:
            value = PartialDate.parse(value)
        if value is not None:
            setattr(record, name, value)
    record.title = record.title or "Mooncake"
    if record.citation_count is not None:
        record.citations_read_on = datetime.date(2026, 10, 7)
        record.citations_source = values.get("source", "Crossref")
    record.authors = [importing.AuthorRecord(given="R", family=values.get("family", "Qin"))]
    return record


def _state(publication):
    publication.refresh_from_db()
    fields = {n for rule in FIELD_RULES for n in GROUPS.get(rule, (rule,))}
    values = {n: importing.planning._comparable(getattr(publication, n)) for n in fields}
    return {
        **values,
        "venue": publication.venue_id,
        "authors": [(a.given_name, a.family_name) for a in publication.authorships.all()],
    }


def _edit(publication, field, choice):
    options = {
        "title": ["Edited title", "Mooncake", "Another"],
        "volume": ["7", "", "22"],
        "issue": ["9", "", "4"],
        "pages": ["5–6", "", "1–38"],
        "publisher": ["Someone", "", "ACM"],
        "abstract": ["Edited.", "", "An abstract."],
        "date": [PartialDate(2025), None, PartialDate(2026, 8)],
        "kind": ["journal", "conference", "book"],
        "citation_count": [5, None, 27],
    }
    value = options[field][choice]
    setattr(publication, field, value)
    if field == "citation_count":
        publication.citations_read_on = datetime.date(2026, 1, 1) if value is not None else None
    publication.save()


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=steps)
def test_every_apply_writes_what_its_plan_announced_and_a_replan_is_unchanged(db, steps):
    with transaction.atomic():
        for action, data, take in steps:
            paper = Publication.objects.filter(doi=TOS_DOI).first()
            if action == "edit":
                if paper is not None:
                    _edit(paper, data["field"], data["value"])
                continue
            before = _state(paper) if paper else None
            (plan,) = importing.plan([_record(data)], take_source=take)
            assert plan.action != importing.ERROR, plan.problems
            importing.apply([plan])
            paper = Publication.objects.get(doi=TOS_DOI)
            after = _state(paper)
            if before is None:
                assert plan.action == importing.NEW
            else:
                changed = {k for k in after if after[k] != before[k]}
                assert changed == set(plan.changes), (plan.changes, changed)
                assert (plan.action == importing.UPDATE) == bool(changed)
            (again,) = importing.plan([_record(data)], take_source=take)
            assert again.action == importing.UNCHANGED, again.changes
        transaction.set_rollback(True)
