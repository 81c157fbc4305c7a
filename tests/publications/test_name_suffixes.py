"""A generational suffix (Jr., III, Júnior, Filho, Neto) is the suffix of a name, never its
family name: split so, stored apart, printed after the family name, exported in each
format's own place for it, and read back the same."""

import json

import pytest
import rispy

from core.names import name_parts, split_name
from publications import importing
from publications.exports import to_bibtex, to_csl_json, to_ris
from publications.models import Publication

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("printed", "parts"),
    [
        ("Martin Luther King Jr.", ("Martin Luther", "King", "Jr.")),
        ("Martin Luther King, Jr.", ("Martin Luther", "King", "Jr.")),
        ("King, Jr., Martin Luther", ("Martin Luther", "King", "Jr.")),  # BibTeX's form
        ("John Smith III", ("John", "Smith", "III")),
        ("Luiz Gonzaga Júnior", ("Luiz", "Gonzaga", "Júnior")),
        ("João Carlos Silva Filho", ("João Carlos", "Silva", "Filho")),
        ("Silva Neto, João", ("João", "Silva", "Neto")),
        ("Pedro Costa Sobrinho", ("Pedro", "Costa", "Sobrinho")),
        ("Ricardo Neto", ("Ricardo", "Neto", "")),  # a family name, with no other before it
        ("Adrian Del Maestro", ("Adrian", "Del Maestro", "")),
    ],
)
def test_a_generational_suffix_is_split_off_never_taken_for_the_family_name(printed, parts):
    assert name_parts(printed) == parts
    assert split_name(printed) == parts[:2]


BIB = """@article{king1963,
  title = {Letter from Birmingham Jail},
  author = {King, Jr., Martin Luther and João Carlos Silva Filho and Ann Lee},
  journal = {The Atlantic Monthly},
  year = {1963}
}
"""


def _import(text):
    plans = importing.plan(importing.read_bibtex(text, "suffix.bib"))
    assert [p.problems for p in plans if p.problems] == []
    importing.apply(plans)


def test_a_suffix_is_stored_apart_and_printed_after_the_family_name():
    _import(BIB)

    king, silva, lee = Publication.objects.get().authorships.order_by("position")

    assert (king.given_name, king.family_name, king.suffix) == ("Martin Luther", "King", "Jr.")
    assert (silva.family_name, silva.suffix) == ("Silva", "Filho")
    assert (king.full_name, king.short_name) == ("Martin Luther King Jr.", "ML King Jr.")
    assert lee.suffix == ""


def test_exports_write_the_suffix_in_each_formats_place_and_bibtex_reads_it_back():
    _import(BIB)
    papers = Publication.objects.for_listing()

    bibtex = to_bibtex(papers)
    (ris,) = rispy.loads(to_ris(papers))
    (csl,) = json.loads(to_csl_json(papers))

    assert "King, Jr., Martin Luther and Silva, Filho, João Carlos and Lee, Ann" in bibtex
    assert ris["authors"][:2] == ["King, Martin Luther, Jr.", "Silva, João Carlos, Filho"]
    assert csl["author"][0] == {"family": "King", "given": "Martin Luther", "suffix": "Jr."}
    assert "suffix" not in csl["author"][2]
    Publication.objects.all().delete()
    _import(bibtex)
    rows = Publication.objects.get().authorships.order_by("position")
    assert [(a.family_name, a.suffix) for a in rows] == [
        ("King", "Jr."),
        ("Silva", "Filho"),
        ("Lee", ""),
    ]
