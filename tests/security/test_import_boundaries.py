"""Imports respect ownership, validate every value while planning, and bound their work."""

import json

import pytest

from publications import importing
from publications.models import Publication
from tests import factories
from tests.publications.recorded import DATA

pytestmark = pytest.mark.django_db

URL = "/admin/publications/publication/import/"


def _bib(doi, title="Rewritten Title", abstract="Rewritten abstract."):
    return (
        f"@article{{x, title={{{title}}}, author={{Nobody, Ann}}, journal={{J}}, year={{2024}},"
        f" doi={{{doi}}}, abstract={{{abstract}}}}}"
    )


def test_a_member_import_cannot_overwrite_a_paper_they_do_not_author(client, cast):
    from django.core.files.uploadedfile import SimpleUploadedFile

    other = factories.PersonFactory(name="Not Them")
    paper = factories.authored(other, ["N Them", "X Y"], at=1, doi="10.1145/42", title="Theirs")
    client.force_login(cast["owner"])

    upload = SimpleUploadedFile("x.bib", _bib("10.1145/42").encode())
    response = client.post(URL, {"file": upload}, follow=True)
    preview = response.content.decode()
    client.post(response.redirect_chain[-1][0], {"confirm": "1", "skip_invalid": "on"})

    paper.refresh_from_db()
    assert "not an author of" in preview
    assert paper.title == "Theirs" and paper.abstract == ""
    assert list(paper.authorships.values_list("person", flat=True)) == [other.pk, None]


def test_a_lab_admin_import_may_update_any_paper(admin_client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    paper = factories.authored(None, ["A Author"], at=0, doi="10.1145/42", title="Old")
    upload = SimpleUploadedFile("x.bib", _bib("10.1145/42").encode())
    response = admin_client.post(URL, {"file": upload})
    admin_client.post(response["Location"], {"confirm": "1"})

    paper.refresh_from_db()
    assert paper.abstract == "Rewritten abstract."


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"type": ["journal-article"]}, "“type” is not text"),
        ({"author": 5}, "“author” is not a list"),
        ({"DOI": 12345}, "invalid DOI"),
        ({"issued": "2023"}, "“issued” is not an object"),
        ({"title": {"a": 1}}, "“title” is not text"),
        ({"author": [{"family": None, "given": "A", "affiliation": "MIT"}]}, "not a list"),
        ({"is-referenced-by-count": -3}, "greater than or equal to 0"),
        ({"is-referenced-by-count": 10**30}, "less than or equal to"),
        ({"title": ["x" * 501]}, "at most 500 characters"),
        ({"container-title": ["V" * 501]}, "at most 500 characters"),
    ],
)
def test_wrong_crossref_values_are_problems_and_the_dry_run_predicts_the_write(change, problem):
    work = json.loads((DATA / "crossref-mooncake-tos.json").read_text())["message"]
    work.update(change)

    records = importing.read_crossref_json(json.dumps({"message": work}))
    plans = importing.plan(records)
    summary = importing.apply(plans)

    assert any(problem in p for p in records[0].problems), records[0].problems
    assert plans[0].action == importing.ERROR
    assert (summary.failed, summary.written) == (1, False)
    assert not Publication.objects.exists()


def test_all_null_crossref_work_is_one_clean_problem():
    keys = ["DOI", "title", "type", "author", "issued", "ISSN", "container-title", "page"]
    records = importing.read_crossref_json(json.dumps({"message": dict.fromkeys(keys)}))

    assert records[0].problems == ["it has no title", "it lists no authors"]


def test_an_author_name_longer_than_the_field_is_a_problem_not_a_database_error():
    records = importing.read_bibtex(
        "@article{x, title={T}, author={" + "Y" * 150 + ", Ann}, journal={J}, year={2024}}"
    )

    plans = importing.plan(records)

    assert plans[0].action == importing.ERROR
    assert "author 1: family name: Ensure this value has at most 100" in plans[0].problems[0]


def test_latex_heavy_files_are_refused_past_the_decoding_budget(monkeypatch):
    monkeypatch.setattr("publications.importing.latex.MAX_LATEX_CHARS", 5_000)
    body = "\\textbf{x} " * 40
    text = "".join(
        f"@article{{k{n}, title={{$\\alpha^{n}$ {body}}}, author={{A, B}}}}\n" for n in range(30)
    )

    with pytest.raises(importing.ImportProblem, match="more LaTeX markup than one import"):
        importing.read_bibtex(text)


def test_latex_that_cannot_be_decoded_is_a_problem_of_its_entry():
    nested = "\\begin{itemize}\\item a " * 2000 + "\\end{itemize}" * 2000
    records = importing.read_bibtex(
        "@article{x, title={" + nested + "}, author={A, B}, journal={J}, year={2024}}"
    )

    assert records[0].problems == ["the LaTeX in its title cannot be read", "it has no title"]


def test_an_author_list_longer_than_a_page_can_hold_is_a_problem_of_its_entry():
    authors = " and ".join(f"Author{n}, A" for n in range(10_001))
    records = importing.read_bibtex(f"@article{{x, title={{T}}, author={{{authors}}}}}")

    assert records[0].problems == ["it lists 10,001 authors; labsite keeps at most 10,000"]
    assert importing.plan(records)[0].action == importing.ERROR
