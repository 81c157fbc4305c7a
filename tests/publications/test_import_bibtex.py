"""Importing BibTeX: decoding, names in both orders, months, pages, and bad entries."""

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from publications import importing
from publications.importing import ImportProblem, latex
from publications.importing.files import read_file_text
from publications.importing.latex import LatexDecoder
from publications.models import Publication

pytestmark = pytest.mark.django_db

GOOD = r"""
@inproceedings{ma2023efficient,
  title = {Efficient Scheduler Live Update for {L}inux Kernel with Modularization},
  author = {Ma, Teng and Shimin Chen and M{\"u}ller, J{\"o}rg and Fran{\c{c}}ois de la Tour},
  booktitle = {Proceedings of the 28th International Conference (ASPLOS '23)},
  year = {2023},
  month = mar,
  pages = {194--207},
  doi = {https://doi.org/10.1145/3582016.3582054}
}
@misc{sun2026surviving,
  title = {Surviving Partial Rank Failures in Wide Expert-Parallel {MoE} Inference},
  author = {Sun, X and Chen, S and others},
  year = 2026,
  eprint = {2601.01234},
  archivePrefix = {arXiv}
}
"""


def _records(text):
    return importing.read_bibtex(text, "papers.bib")


def test_bibtex_entries_are_decoded_to_unicode_with_both_name_orders():
    record = _records(GOOD)[0]

    assert record.title == "Efficient Scheduler Live Update for Linux Kernel with Modularization"
    assert [(a.given, a.family) for a in record.authors] == [
        ("Teng", "Ma"),
        ("Shimin", "Chen"),
        ("Jörg", "Müller"),
        ("François", "de la Tour"),
    ]
    assert record.date.isoformat() == "2023-03"
    assert record.pages == "194–207"
    assert record.doi == "10.1145/3582016.3582054"
    assert record.kind == Publication.Kind.CONFERENCE
    assert importing.plan([record])[0].candidate.venue.short_name == "ASPLOS"


def test_bibtex_names_given_first_keep_capitalized_particles_in_the_family_name():
    (record,) = _records(
        "@article{a, title={T}, year={2020}, journal={J},"
        " author={Adrian Del Maestro and Luca De Siena and {\\'E}mile Van Den Berg}}"
    )

    assert [(a.given, a.family) for a in record.authors] == [
        ("Adrian", "Del Maestro"),
        ("Luca", "De Siena"),
        ("Émile", "Van Den Berg"),
    ]


def test_arxiv_misc_entry_becomes_a_preprint_and_others_an_unlisted_row():
    record = _records(GOOD)[1]

    assert (record.kind, record.status, record.arxiv_id) == ("preprint", "preprint", "2601.01234")
    assert [a.is_unlisted for a in record.authors] == [False, False, True]


def test_bibtex_import_writes_both_papers():
    summary = importing.apply(importing.plan(_records(GOOD)))

    assert summary.created == 2
    paper = Publication.objects.get(doi="10.1145/3582016.3582054")
    assert paper.authorships.count() == 4
    assert paper.venue.short_name == "ASPLOS"


def _problems(text):
    return {p.record.label: p.problems for p in importing.plan(_records(text)) if p.problems}


def test_each_bad_entry_is_named_with_its_problem_and_nothing_is_written():
    text = (
        GOOD
        + r"""
@article{notitle, author = {A B}, year = {2020}}
@article{ma2023efficient, title = {Duplicate Key}, author = {A B}, year = {2020}}
@unknowntype{odd, title = {Odd}, author = {A B}}
@article{baddoi, title = {Bad DOI}, author = {A B}, doi = {not a doi}}
@article{broken, title = {Missing brace, author = {A B}
"""
    )
    problems = _problems(text)

    assert problems["papers.bib, entry “notitle”"] == ["it has no title"]
    assert "papers.bib, entry “ma2023efficient” (line 20)" not in problems  # another work
    assert problems["papers.bib, entry “odd”"] == ["unknown entry type @unknowntype"]
    assert problems["papers.bib, entry “baddoi”"] == ["invalid DOI “not a doi”"]
    assert problems["papers.bib, entry “broken” (line 23)"] == [
        "cannot be read as BibTeX: check its braces, quotes and commas"
    ]
    assert importing.apply(importing.plan(_records(text))).written is False
    assert not Publication.objects.exists()


def test_the_same_work_twice_in_one_file_is_refused():
    text = GOOD + GOOD.replace("ma2023efficient", "again").replace("sun2026surviving", "again2")

    plans = importing.plan(_records(text))

    assert [p.action for p in plans] == ["new", "new", "error", "error"]
    assert "the same work as papers.bib, entry “ma2023efficient”" in plans[2].problems[0]


def test_skip_invalid_writes_the_valid_entries_only():
    text = GOOD + "@article{notitle, author = {A B}, year = {2020}}"

    summary = importing.apply(importing.plan(_records(text)), skip_invalid=True)

    assert (summary.created, summary.failed) == (2, 1)


def test_empty_or_garbage_file_is_refused():
    with pytest.raises(ImportProblem, match="holds no BibTeX entries"):
        importing.read_bibtex("just some text", "notes.bib")


def test_file_over_the_size_cap_is_refused_before_parsing():
    with pytest.raises(ImportProblem, match="at most 5 MB"):
        read_file_text("huge.bib", b"%" * (5 * 1024 * 1024 + 1))


def test_non_utf8_file_is_refused():
    with pytest.raises(ImportProblem, match="not UTF-8"):
        read_file_text("latin1.bib", "@article{a, title={Ærø}}".encode("latin-1"))


def test_bare_percent_and_ampersand_are_the_characters_in_any_value():
    records = importing.read_bibtex(
        r"@article{k, title={50% Faster Joins for R&D: A {\"U}ber-Study}, author={A, B},"
        r" journal={J & K}, year={2024}}"
    )

    assert records[0].title == "50% Faster Joins for R&D: A Über-Study"
    assert records[0].venue_name == "J & K"


# What the fast reading takes: text, braces, escaped symbols, and single characters that
# begin LaTeX ligatures ("--", "''", "!`") when doubled.
_LATEX_ALPHABET = [*"ab -'`!?{}&%#_\n\"^", *(f"\\{c}" for c in "&%$#_{}")]


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(_LATEX_ALPHABET), max_size=14).map("".join))
def test_values_read_without_pylatexenc_read_exactly_as_pylatexenc_reads_them(value):
    """The fast reading of braces and escaped symbols is the library's reading."""
    assume(not latex._NEEDS_PYLATEXENC.search(value))

    assert LatexDecoder().decode(value) == latex.pylatexenc_text(value)
