"""Every public page type of the demo lab, with DEBUG off (404 and 500 included), is valid
HTML by the Nu HTML Checker and has no WCAG 2.1 AA violation by axe-core in Chromium, in
the light and the dark theme; and so is every page type of a personal site (PERSONAL_SITE).

The checkers come from npm (vnu-jar, axe-core; CI installs them and names them in VNU_JAR
and AXE_JS). Without them the test is skipped, unless REQUIRE_BROWSER is set.
"""

import json
import os
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import RequestFactory
from django.views.defaults import server_error

from lab.models import LabSettings
from labsite.outages import outage_response
from people.models import Person
from publications.models import Publication
from talks.models import Talk
from tests import factories
from website.models import Course, HomeSection, Opening, Page, Post, Theme

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
VNU_JAR = Path(os.environ.get("VNU_JAR", ROOT / "node_modules/vnu-jar/build/dist/vnu.jar"))
AXE_JS = Path(os.environ.get("AXE_JS", ROOT / "node_modules/axe-core/axe.min.js"))
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


@pytest.fixture
def checkers():
    if not (VNU_JAR.exists() and AXE_JS.exists()):
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(f"REQUIRE_BROWSER is set but {VNU_JAR} or {AXE_JS} is missing")
        pytest.skip("npm install vnu-jar axe-core (or set VNU_JAR and AXE_JS)")


@pytest.fixture
def page_types(transactional_db):
    """One address of each public page type of the demo lab, in English and in Chinese."""
    call_command("load_demo", verbosity=0)
    papers = Publication.objects.published()
    talk = next(t for t in Talk.objects.published().for_listing() if t.has_page)
    # the media library and tags: every text a page type shows holds what a lab writes
    # besides words (RICH_TEXT), the items with a picture of their own have a featured
    # image, and a post is tagged like a paper; the tags' pages
    cluster = factories.MediaItemFactory(name="cluster", caption="The lab's GPU cluster")
    gallery = factories.GalleryFactory(name="retreat")
    for position in (1, 2, 3):
        factories.GalleryItemFactory(gallery=gallery, position=position)
    post = Post.objects.get(slug="mooncake-open-source-2024")
    paper = papers.filter(kind="conference").first()
    texts = {
        post: ["body"],
        Page.objects.get(address="join-us"): ["body"],
        Theme.objects.get(slug="kvcache-centric-serving"): ["body"],
        Opening.objects.get(slug="phd-kvcache-systems"): ["description"],
        Course.objects.get(slug="systems-for-large-language-models-2025"): ["description"],
        talk: ["description"],
        paper: ["abstract"],
        Person.objects.get(slug="teng-ma"): ["bio"],
        LabSettings.load(): ["about"],  # the home's about section
    }
    for row, fields in texts.items():
        _write_rich_text(row, fields)
        if hasattr(row, "featured_image"):
            row.featured_image = cluster
        row.save()
    tag = factories.TagFactory(name="memory systems", slug="memory-systems")
    tag.name_zh_hans = "内存系统"
    tag.save()
    post.tags.add(tag)
    papers.filter(kind="conference").first().tags.add(tag)
    english = [
        "/",  # the home the demo lab composed: banner, about, themes, news, … contact
        "/people/",
        "/people/teng-ma/",  # RICH_TEXT in his bio
        "/people/teng-ma/?kind=journal",
        "/people/teng-ma/cv/",
        "/publications/",
        "/publications/?year=2025",
        paper.get_absolute_url(),  # RICH_TEXT in its abstract, a featured image
        papers.filter(kind="preprint").first().get_absolute_url(),
        papers.filter(kind="patent").first().get_absolute_url(),
        "/talks/",
        talk.get_absolute_url(),  # RICH_TEXT in its description, a featured image
        "/awards/",
        "/news/",
        "/join-us/",  # the lab's own page, in the menu, RICH_TEXT in its body
        "/join-us/interns/",  # a subpage, written in English only
        "/posts/",
        "/posts/mooncake-open-source-2024/",  # by two members, both languages, RICH_TEXT
        "/openings/",
        "/openings/phd-kvcache-systems/",  # RICH_TEXT in its description
        "/themes/",
        "/themes/kvcache-centric-serving/",  # its people, papers and code, RICH_TEXT
        "/teaching/",
        "/teaching/systems-for-large-language-models-2025/",  # its teachers, RICH_TEXT
        "/tags/",
        "/tags/memory-systems/",  # a post (its featured image) and a paper
        "/search/",
        "/search/?q=Mooncake+serving",  # results of every kind, the matched words marked
        "/no-such-page/",
    ]
    return english + ["/zh-hans" + url for url in english]


# What a lab writes in a text besides words, through the one renderer (core/markup/): a
# figure and a gallery from the media library, formulas, code with its language, a video
# and a table; written into every text of a page type that shows one, in both languages.
RICH_TEXT = r"""

### HEADING

![](media:cluster)

![The retreat](media:gallery/retreat)

Attention costs $O(n^2)$ in the sequence length $n$:

$$
\mathrm{softmax}(x)_i = \frac{e^{x_i}}{\sum_{j=1}^{n} e^{x_j}}
$$

```python
def transfer(blocks: list[bytes], engine) -> int:
    return sum(engine.write(block) for block in blocks)  # one verb per block
```

https://www.youtube.com/watch?v=dQw4w9WgXcQ

| System | Year | Throughput (GB/s) |
|:-------|-----:|------------------:|
| Mooncake | 2024 | 190.5 |
"""
RICH_HEADINGS = {"en": "Figures, formulas, code and a video", "zh_hans": "图、公式、代码与视频"}


def _write_rich_text(row, fields):
    """RICH_TEXT after each of `fields` of `row`, in each language it is kept in."""
    for field in fields:
        if not hasattr(row, f"{field}_en"):  # kept in one language
            text = RICH_TEXT.replace("HEADING", RICH_HEADINGS["en"])
            setattr(row, field, getattr(row, field) + text)
            continue
        for code, heading in RICH_HEADINGS.items():
            column = f"{field}_{code}"
            setattr(row, column, getattr(row, column) + RICH_TEXT.replace("HEADING", heading))


def _vnu_errors(client, urls, tmp_path, extra=()):
    """What the Nu HTML Checker finds wrong in the pages at `urls` (and the `extra` (name,
    bytes) pages), as "address: message"."""
    files, names = [], []
    for number, url in enumerate(urls):
        response = client.get(url)
        assert response.status_code == (404 if "no-such" in url else 200), url
        files.append(tmp_path / f"{number}.html")
        files[-1].write_bytes(response.content)
        names.append(url)
    for name, content in extra:
        files.append(tmp_path / f"{name}.html")
        files[-1].write_bytes(content)
        names.append(name)
    checked = subprocess.run(
        ["java", "-jar", str(VNU_JAR), "--errors-only", "--format", "json", "--stdout", *files],
        capture_output=True,
        text=True,
    )
    messages = json.loads(checked.stdout)["messages"]
    pages = {str(f): name for f, name in zip(files, names, strict=True)}
    return [f"{pages[m['url'].removeprefix('file:')]}: {m['message']}" for m in messages]


def _axe_violations(browser, live_server, urls, theme="light", width=1280, open_menu=False):
    """{address: WCAG 2.x AA violations axe-core finds in Chromium} for the pages at `urls`,
    `width` px wide (with the phone's menu opened, if `open_menu`). axe is added to each
    page by the test; the site's CSP (no inline script) is bypassed for that alone."""
    context = browser.new_context(
        viewport={"width": width, "height": 900 if width > 760 else 844},
        color_scheme=theme,
        bypass_csp=True,
    )
    page = context.new_page()
    found = {}
    for url in urls:
        page.goto(live_server.url + url)
        if open_menu and page.locator("summary.site-menu__button").count():
            page.locator("summary.site-menu__button").click()
        page.add_script_tag(path=str(AXE_JS))
        violations = page.evaluate(
            """async (tags) => {
                const result = await axe.run(document, {runOnly: {type: "tag", values: tags}});
                const where = (v) => v.nodes.slice(0, 3).map((n) => n.target.join(" "));
                return result.violations.map((v) => `${v.id}: ${where(v).join(", ")}`);
            }""",
            WCAG_AA,
        )
        if violations:
            found[url] = violations
    context.close()
    return found


def test_every_page_type_is_valid_html(checkers, page_types, client, tmp_path):
    extra = [
        ("500", server_error(RequestFactory().get("/")).content),
        # what a visitor sees while the database is down
        ("503", outage_response("database").content),
    ]
    assert _vnu_errors(client, page_types, tmp_path, extra) == []


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_page_type_has_no_wcag_aa_violation(
    checkers, page_types, browser, live_server, theme, width
):
    """On a desktop and on a phone (its menu open, so what it holds is checked too)."""
    assert _axe_violations(browser, live_server, page_types, theme, width, width < 761) == {}


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_pages_in_the_labs_own_colour_have_no_wcag_aa_violation(
    checkers, page_types, browser, live_server, theme
):
    """A colour the lab settings accept, just above the ratio on the light page (a green
    at 4.7:1 on its labels' tint), and the shade of it the dark theme takes."""
    lab = LabSettings.load()
    lab.primary_colour = "#2d7931"
    lab.full_clean()
    lab.save()
    pages = ["/", "/people/teng-ma/", "/publications/", "/zh-hans/people/"]

    assert _axe_violations(browser, live_server, pages, theme) == {}
    assert _axe_violations(browser, live_server, pages, theme, 390, open_menu=True) == {}


@pytest.fixture
def personal_site_pages(page_types, settings):
    """One address of each public page type of a personal site (PERSONAL_SITE) of the demo
    lab's fullest member, in English and in Chinese: what a visitor or a crawler of his
    site finds, each about him."""
    settings.PERSONAL_SITE = "teng-ma"
    papers = Publication.objects.published()  # his alone, as on his site
    talk = next(t for t in Talk.objects.published().for_listing() if t.has_page)
    assert talk.speakers.filter(person__slug="teng-ma").exists()
    english = [
        "/",  # his profile
        "/?kind=journal",
        "/people/teng-ma/cv/",
        "/publications/",
        "/publications/?year=2025",
        papers.filter(kind="conference").first().get_absolute_url(),
        papers.filter(kind="preprint").first().get_absolute_url(),
        papers.filter(kind="patent").first().get_absolute_url(),
        "/talks/",
        talk.get_absolute_url(),
        "/awards/",
        "/news/",
        "/posts/",
        Post.objects.published().first().get_absolute_url(),
        "/themes/",
        Theme.objects.published().first().get_absolute_url(),
        "/openings/",
        Opening.objects.published().first().get_absolute_url(),
        "/no-such-page/",
    ]
    return english + ["/zh-hans" + url for url in english]


def test_every_page_type_of_a_personal_site_is_valid_html(
    checkers, personal_site_pages, client, tmp_path
):
    assert _vnu_errors(client, personal_site_pages, tmp_path) == []


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_page_type_of_a_personal_site_has_no_wcag_aa_violation(
    checkers, personal_site_pages, browser, live_server, theme
):
    assert _axe_violations(browser, live_server, personal_site_pages, theme) == {}


def test_the_homes_a_lab_composes_are_valid_and_accessible_on_a_phone_too(
    checkers, page_types, client, browser, live_server, tmp_path
):
    """The demo's composed home with a banner image, and the default composition (no
    sections saved), in both languages, light and dark, at 1,280 and 390 px."""
    banner = HomeSection.objects.get(kind="banner")
    banner.image = factories.photo_upload((1200, 600))
    banner.image_alt = "The lab's machine room"
    banner.image_alt_zh_hans = "实验室的机房"
    banner.save()
    homes = ["/", "/zh-hans/"]

    for composed in (True, False):
        if not composed:
            HomeSection.objects.all().delete()
        assert _vnu_errors(client, homes, tmp_path) == [], composed
        for theme in ("light", "dark"):
            for width in (1280, 390):
                phone = width < 761  # its menu open
                found = _axe_violations(browser, live_server, homes, theme, width, phone)
                assert found == {}, (composed, theme, width)
