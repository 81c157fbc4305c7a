"""`import_site` brings a site's images into the media library: each image a text shows and
each page's featured image, found in the site's folder, with the site's alt text or waiting
for one (none is made up); tags into the one vocabulary; formulas and code as labsite's
renderer reads them. What cannot come in is named: its file, the image, and why.

(The corpus of real sites holds no image files: tests/labsite/test_site_import_corpus.py
counts there what a site names; these sites hold their images.)"""

import io

import pytest
from django.core.management import call_command
from PIL import Image

from core.markup import render_page_markdown
from media.models import MediaItem
from publications.models import Publication
from tests import factories
from website.models import Post

pytestmark = pytest.mark.django_db


def _write(site, name, text):
    (site / name).parent.mkdir(parents=True, exist_ok=True)
    (site / name).write_text(text, encoding="utf-8")


def _picture(site, name, fmt="PNG", size=(64, 48)):
    (site / name).parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, "teal").save(site / name, fmt)


def _import(site, *args):
    out = io.StringIO()
    call_command("import_site", str(site), *args, stdout=out)
    return out.getvalue()


def _section(report, title):
    """The lines of the report's section that starts with `title`."""
    lines = report.split(title, 1)[1].splitlines()[1:]
    return [line.removeprefix("  - ") for line in lines if line.startswith("  - ")]


POST = """---
layout: post
title: Our new cluster
date: 2024-03-01
tags: gpu systems
categories: lab
thumbnail: assets/img/cover.jpg
---
![Four racks of GPU servers](/assets/img/racks.png)

{% include figure.liquid path="assets/img/plot.png" title="throughput" %}

<p align="center">
  <img src="/assets/img/logo.png" alt="The lab's logo">
</p>

![A lost photo](/assets/img/missing.png) and ![A borrowed one](https://example.org/x.png)
"""


@pytest.fixture
def alfolio(tmp_path):
    site = tmp_path / "site"
    _write(site, "_config.yml", "first_name: Ada\nlast_name: Lovelace\n")
    _write(site, "_pages/about.md", "---\nlayout: about\n---\nAda's lab.\n")
    _write(site, "_posts/2024-03-01-cluster.md", POST)
    for name in ("racks.png", "plot.png", "logo.png", "cover.jpg"):
        _picture(site, f"assets/img/{name}", "JPEG" if name.endswith("jpg") else "PNG")
    return site


def test_the_images_a_post_shows_come_into_the_media_library_and_its_text_shows_them(alfolio):
    report = _import(alfolio, "--apply")

    post = Post.objects.get()
    assert set(MediaItem.objects.values_list("name", flat=True)) == {
        "racks",
        "plot",
        "logo",
        "cover",
    }
    assert "![Four racks of GPU servers](media:racks)" in post.body_en
    assert "![](media:plot)" in post.body_en  # al-folio's title is a tooltip, no caption
    assert "\n\n  ![The lab's logo](media:logo)\n\n" in post.body_en  # read out of the HTML
    assert post.featured_image.name == "cover"
    assert render_page_markdown(post.body_en).count("<picture>") == 3
    assert "image: 4 new" in report


def test_the_sites_alt_text_comes_with_its_image_and_none_is_made_up(alfolio):
    report = _import(alfolio, "--apply")

    racks, plot = MediaItem.objects.get(name="racks"), MediaItem.objects.get(name="plot")
    assert (racks.alt_en, racks.alt_zh_hans, racks.awaits_alt_text) == (
        "Four racks of GPU servers",
        "",
        True,
    )
    assert (plot.alt_en, plot.alt_zh_hans, plot.awaits_alt_text) == ("", "", True)
    waiting = _section(report, "To complete")
    assert (
        "assets/img/racks.png: media:racks awaits its alt text (the site's is in English "
        "only: write it in Chinese, in the media library)"
    ) in waiting
    assert (
        "assets/img/plot.png: media:plot awaits its alt text (the site gives none: write what "
        "it shows, in English and Chinese, in the media library)"
    ) in waiting


def test_an_image_that_cannot_come_in_is_named_and_its_text_kept(alfolio):
    _picture(alfolio, "assets/img/wave.gif", "GIF")
    post = alfolio / "_posts/2024-03-01-cluster.md"
    post.write_text(post.read_text() + "\n![A wave](/assets/img/wave.gif)\n")

    report = _import(alfolio)  # a preview names the same as an import

    not_imported = _section(report, "Not imported")
    assert (
        "_posts/2024-03-01-cluster.md: the image /assets/img/missing.png (not in the folder)"
    ) in not_imported
    assert any(
        line.startswith(
            "_posts/2024-03-01-cluster.md: the image https://example.org/x.png (from "
            "example.org, a host the lab does not show images from"
        )
        for line in not_imported
    )
    assert any(
        line.startswith("assets/img/wave.gif: GIF images are not accepted")
        for line in _section(report, "Skipped")
    )
    assert not MediaItem.objects.exists()  # a preview writes nothing


def test_tags_and_categories_are_the_posts_tags(alfolio):
    _import(alfolio, "--apply")

    post = Post.objects.get()
    assert sorted(post.tags.values_list("slug", flat=True)) == ["gpu", "lab", "systems"]


def test_a_second_import_brings_no_image_twice(alfolio):
    _import(alfolio, "--apply")
    items = set(MediaItem.objects.values_list("pk", "name"))

    again = _import(alfolio, "--apply")

    assert "Imported: 0 rows new or updated." in again
    assert set(MediaItem.objects.values_list("pk", "name")) == items


def test_another_image_of_the_same_name_is_not_taken_for_the_sites(alfolio):
    factories.MediaItemFactory(name="racks")  # the lab's own, 800 × 600

    _import(alfolio, "--apply")

    assert "![Four racks of GPU servers](media:racks-2)" in Post.objects.get().body_en


BUNDLE = """---
title: Hello
date: 2024-05-01
tags: [Deep Learning, 深度学习]
image:
  caption: "Photo: Ada"
---
{{< figure src="diagram.png" caption="The pipeline, stage by stage" >}}

A formula: \\\\[ \\frac{{a}}{b} \\\\] and $$E = mc^2$$.

{{< highlight python >}}
print("hello")
{{< /highlight >}}
"""
PAPER = """---
title: A paper
date: 2023-01-01
publication_types: ["2"]
tags: [Source Themes, Memory]
---
"""


@pytest.fixture
def hugo(tmp_path):
    site = tmp_path / "hugo"
    _write(site, "config.toml", 'title = "Lab"\n')
    _write(site, "content/post/hello/index.md", BUNDLE)
    _picture(site, "content/post/hello/featured.jpg", "JPEG")
    _picture(site, "content/post/hello/diagram.png")
    _write(site, "content/publication/paper/index.md", PAPER)
    _picture(site, "content/publication/paper/featured.png")
    return site


def test_a_hugo_page_bundles_featured_image_and_figure_come_in(hugo):
    report = _import(hugo, "--apply")

    post = Post.objects.get()
    assert post.featured_image.name == "post-hello-featured"
    assert (
        '![The pipeline, stage by stage](media:post-hello-diagram "The pipeline, stage by stage")'
    ) in post.body_en
    # Hugo's figure tells its readers its caption where it has no alt text: that it says
    diagram = MediaItem.objects.get(name="post-hello-diagram")
    assert diagram.alt_en == "The pipeline, stage by stage"
    paper = Publication.objects.get()
    assert paper.featured_image.name == "publication-paper-featured"
    assert list(paper.tags.values_list("name_en", flat=True)) == ["Memory"]
    assert "content/publication/paper/index.md: the tag “Source Themes”, the template's sample" in (
        _section(report, "Left out")
    )


def test_formulas_and_code_come_in_as_labsites_renderer_reads_them(hugo):
    _import(hugo, "--apply")

    body = Post.objects.get().body_en
    assert "$$ \\frac{{a}}{b} $$" in body  # kramdown's \\[ \\], and TeX that is no Liquid
    assert '```python\nprint("hello")\n```' in body
    shown = render_page_markdown(body)
    assert shown.count("<math") == 2
    assert '<pre class="highlight"' in shown


def test_a_tag_written_only_in_chinese_is_named(hugo):
    report = _import(hugo, "--apply")

    assert list(Post.objects.get().tags.values_list("name_en", flat=True)) == ["Deep Learning"]
    assert any(
        line.startswith("content/post/hello/index.md: the tag “深度学习” (a tag has an English")
        for line in _section(report, "Not imported")
    )
