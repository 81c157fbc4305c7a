"""al-folio's BibTeX link fields (arxiv, code, html, pdf, slides, poster, video, website,
supp, blog, dataset) become links on the paper's page, each under its own label, as
al-folio shows them as buttons; a relative file name names a file not brought along."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from publications import importing
from publications.models import Publication

pytestmark = pytest.mark.django_db

ENTRY = r"""
@inproceedings{qin2024mooncake,
  title = {Mooncake: A KVCache-centric Architecture},
  author = {Qin, Ruoyu and Ma, Teng},
  booktitle = {FAST},
  year = {2025},
  arxiv = {2407.00079},
  code = {https://github.com/kvcache-ai/Mooncake},
  html = {https://www.usenix.org/conference/fast25/presentation/qin},
  pdf = {https://www.usenix.org/system/files/fast25-qin.pdf},
  slides = {https://example.org/mooncake-slides.pdf},
  poster = {https://example.org/mooncake-poster.pdf},
  video = {https://www.youtube.com/watch?v=abc},
  website = {https://kvcache-ai.github.io/Mooncake/},
  supp = {https://example.org/mooncake-appendix.pdf},
  blog = {https://example.org/blog/mooncake},
  dataset = {https://huggingface.co/datasets/kvcache-ai/traces},
  bibtex_show = {true}
}
"""


def _import(text):
    plans = importing.plan(importing.read_bibtex(text, "papers.bib"))
    assert [p.problems for p in plans if p.problems] == []
    importing.apply(plans)
    return Publication.objects.get()


def test_every_alfolio_link_field_is_a_link_on_the_papers_page(client):
    paper = _import(ENTRY)
    paper.is_published = True
    paper.save()

    html = client.get(paper.get_absolute_url()).content.decode()

    for label, url in [
        ("arXiv", "https://arxiv.org/abs/2407.00079"),
        ("Code", "https://github.com/kvcache-ai/Mooncake"),
        ("PDF", "https://www.usenix.org/system/files/fast25-qin.pdf"),
        ("Slides", "https://example.org/mooncake-slides.pdf"),
        ("Poster", "https://example.org/mooncake-poster.pdf"),
        ("Video", "https://www.youtube.com/watch?v=abc"),
        ("Project", "https://kvcache-ai.github.io/Mooncake/"),
        ("Supplement", "https://example.org/mooncake-appendix.pdf"),
        ("Blog", "https://example.org/blog/mooncake"),
        ("Dataset", "https://huggingface.co/datasets/kvcache-ai/traces"),
    ]:
        assert f'<a href="{url}">{label}</a>' in html, label
    assert "https://www.usenix.org/conference/fast25/presentation/qin" in html  # the html


def test_an_alfolio_link_given_as_a_file_name_is_named_as_a_file_not_brought(client):
    (record,) = importing.read_bibtex(
        ENTRY.replace("https://example.org/mooncake-poster.pdf", "mooncake_poster.pdf"),
        "papers.bib",
    )

    assert "poster “mooncake_poster.pdf”" in record.files


def _migrate(targets):
    MigrationExecutor(connection).migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_a_poster_blog_or_supplement_kept_as_the_other_link_moves_to_its_own_and_back():
    before = [("publications", "0013_status_may_be_unknown")]
    after = [("publications", "0014_alfolio_link_fields")]
    old = _migrate(before).get_model("publications", "Publication")
    poster = "https://example.org/poster.pdf"
    old.objects.create(title="A", slug="a", other_url=poster, other_label="Poster")
    old.objects.create(
        title="B", slug="b", other_url="https://hal.science/hal-1", other_label="HAL"
    )
    try:
        new = _migrate(after).get_model("publications", "Publication")
        moved = new.objects.get(slug="a")
        assert (moved.poster_url, moved.other_url, moved.other_label) == (poster, "", "")
        assert new.objects.get(slug="b").other_label == "HAL"

        back = _migrate(before).get_model("publications", "Publication")
        assert back.objects.get(slug="a").other_url == poster
        assert back.objects.get(slug="a").other_label == "Poster"
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
