"""Tags: one vocabulary across papers, posts, talks, themes and courses; a page per tag in
both languages; the publication and post lists filtered by tag; BibTeX keywords read into
tags; a lab admin merges tags."""

import pytest
from django.apps import apps
from django.template.loader import get_template

from lab import sections
from publications import importing
from publications.models import Publication
from tags.models import Tag
from tests import factories
from tests.sitemaps import whole_sitemap

pytestmark = pytest.mark.django_db


@pytest.fixture
def systems(site_rows):
    tag = factories.TagFactory(name="memory systems", name_zh_hans="内存系统", slug="memory")
    post = factories.PostFactory(title="Mooncake wins an award", slug="award")
    paper = factories.PublicationFactory(title="Mooncake: A KVCache-centric Architecture")
    talk = factories.TalkFactory(title="Serving LLMs", description="At AICon.")
    theme = factories.ThemeFactory(title="KV caches")
    course = factories.CourseFactory(title="Operating systems")
    for item in (post, paper, talk, theme, course):
        item.tags.add(tag)
    other = factories.PostFactory(title="A post about something else", slug="else")
    other.tags.add(factories.TagFactory(slug="teaching"))
    return {"tag": tag, "post": post, "paper": paper, "talk": talk, "theme": theme}


def test_the_tags_page_lists_everything_with_it(client, systems):
    html = client.get("/tags/memory/").content.decode()

    for title in [
        "Mooncake wins an award",
        "Mooncake: A KVCache-centric Architecture",
        "Serving LLMs",
        "KV caches",
        "Operating systems",
    ]:
        assert title in html
    assert "A post about something else" not in html
    assert "<h1>memory systems</h1>" in html


def test_the_tags_page_shows_each_section_in_its_order_in_a_bounded_number_of_queries(
    client, systems, django_assert_max_num_queries
):
    with django_assert_max_num_queries(17):
        html = client.get("/tags/memory/").content.decode()

    headings = [
        "publications-heading",
        "posts-heading",
        "talks-heading",
        "themes-heading",
        "courses-heading",
    ]
    places = [html.index(f'<h2 id="{heading}">') for heading in headings]
    assert places == sorted(places)


def test_every_section_whose_rows_carry_tags_is_on_the_tags_page():
    """A section's rows with a `tags` field are listed on a tag's page by its registry
    entry (lab/sections.py: `tagged`), with a fragment of its own."""
    for section in sections.SECTIONS:
        model = section.rows and apps.get_model(section.rows.model)
        has_tags = bool(model) and any(f.name == "tags" for f in model._meta.get_fields())
        assert bool(section.tagged) == has_tags, section.key
        if section.tagged:
            get_template(f"labsite/tagged/_{section.key}.html")


def test_the_tags_page_in_chinese(client, systems):
    response = client.get("/zh-hans/tags/memory/")

    assert response.status_code == 200
    assert "<h1>内存系统</h1>" in response.content.decode()


def test_a_draft_is_not_listed_and_a_tag_only_drafts_carry_has_no_page(client, systems):
    systems["post"].is_published = False
    systems["post"].save()
    draft_only = factories.TagFactory(slug="secret")
    factories.PostFactory(title="Draft", is_published=False).tags.add(draft_only)

    assert "Mooncake wins an award" not in client.get("/tags/memory/").content.decode()
    assert client.get("/tags/secret/").status_code == 404
    assert "/tags/secret/" not in client.get("/tags/").content.decode()


def test_items_show_their_tags_linked_to_the_tags_page(client, systems):
    for url in [
        "/posts/award/",
        systems["paper"].get_absolute_url(),
        systems["talk"].get_absolute_url(),
        systems["theme"].get_absolute_url(),
        "/posts/",
        "/publications/",
    ]:
        html = client.get(url).content.decode()
        assert '<a class="tag" href="/tags/memory/" rel="tag">memory systems</a>' in html, url


def test_the_posts_list_filters_by_tag(client, systems):
    html = client.get("/posts/?tag=memory").content.decode()

    assert "Mooncake wins an award" in html
    assert "A post about something else" not in html
    assert 'name="tag"' in html


def test_the_publication_list_and_its_export_filter_by_tag(client, systems):
    factories.PublicationFactory(title="An untagged paper")

    html = client.get("/publications/?tag=memory").content.decode()
    bibtex = client.get("/publications/export.bib?tag=memory").content.decode()

    assert "Mooncake: A KVCache-centric Architecture" in html
    assert "An untagged paper" not in html
    assert "KVCache-centric" in bibtex and "untagged" not in bibtex


BIBTEX = """
@inproceedings{qin2025mooncake,
  title = {Mooncake: Trading More Storage for Less Computation},
  author = {Qin, Ruoyu and Ma, Teng},
  booktitle = {FAST},
  year = {2025},
  keywords = {KV cache; Memory Systems, LLM serving}
}
"""


def test_bibtex_keywords_become_tags_and_are_kept_for_exports(site_rows):
    existing = factories.TagFactory(name="memory systems", slug="memory-systems")

    importing.apply(importing.plan(importing.read_bibtex(BIBTEX, "papers.bib")))

    paper = Publication.objects.get()
    assert sorted(paper.tags.values_list("slug", flat=True)) == [
        "kv-cache",
        "llm-serving",
        "memory-systems",
    ]
    assert paper.tags.get(slug="memory-systems") == existing  # matched, not made again
    assert "keywords" in paper.source_fields


def test_a_lab_admin_merges_two_tags_into_one(admin_client, systems):
    duplicate = factories.TagFactory(name="memory", slug="memory-2")
    systems["post"].tags.add(duplicate)  # already has the kept tag: no second row
    other = factories.PostFactory(title="Only the duplicate")
    other.tags.add(duplicate)
    tag = systems["tag"]
    data = {"action": "merge_tags", "_selected_action": [tag.pk, duplicate.pk]}

    page = admin_client.post("/admin/tags/tag/", data)
    response = admin_client.post("/admin/tags/tag/", {**data, "keep": tag.pk, "merge": "1"})

    assert "Merge into the chosen tag" in page.content.decode()
    assert response.status_code == 302
    assert not Tag.objects.filter(pk=duplicate.pk).exists()
    assert set(tag.posts.values_list("title_en", flat=True)) == {
        "Mooncake wins an award",
        "Only the duplicate",
    }


def test_a_lab_admin_renames_a_tag_in_both_languages(admin_client, systems):
    from tests.admin_forms import form_data

    tag = systems["tag"]
    url = f"/admin/tags/tag/{tag.pk}/change/"

    admin_client.post(url, form_data(admin_client.get(url), name_en="memory", name_zh_hans="内存"))

    tag.refresh_from_db()
    assert (tag.name_en, tag.name_zh_hans, tag.slug) == ("memory", "内存", "memory")


def test_the_sitemap_lists_tag_pages_and_names_featured_images(client, systems):
    photo = factories.MediaItemFactory(name="cluster")
    systems["post"].featured_image = photo
    systems["post"].save()

    sitemap = whole_sitemap(client)

    assert "<loc>http://testserver/tags/memory/</loc>" in sitemap
    assert "<loc>http://testserver/zh-hans/tags/memory/</loc>" in sitemap
    assert "<loc>http://testserver/tags/</loc>" in sitemap
    image = f"<image:loc>http://testserver{photo.share_image.url}</image:loc>"
    assert sitemap.count(image) == 2  # the post's page in each language
