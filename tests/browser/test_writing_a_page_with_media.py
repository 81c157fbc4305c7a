"""In Chromium, through the admin: a lab admin uploads two images with their alt text and
captions in both languages, makes a gallery of them, and writes a page whose English and
Chinese bodies hold a figure, the gallery, formulas, highlighted code, a video and a table,
then places it in the menu. Visitors read it in both languages at 1,280 and 390 px, light
and dark: each part is there as the renderer makes it, with no CSP violation and nothing
wider than a phone. Screenshots go to SCREENSHOTS (a folder) when it is set."""

import os

import pytest

from media.models import Gallery, MediaItem
from tests import factories
from tests.browser.admin_forms import pick
from tests.browser.visitors import (
    RECORD_VIOLATIONS,
    answer_video_players,
    serve_media,
    sideways_overflow,
)
from website.models import Page

pytestmark = pytest.mark.django_db(transaction=True)

FENCE = "```"
BODY_EN = f"""The lab's machine room, the people in it this spring, and what runs there.

![](media:cluster)

## Spring at the lab

![](media:gallery/spring-2026)

## What attention costs

Attention costs $O(n^2)$ in the sequence length $n$; each token's weights are a softmax:

$$
\\mathrm{{softmax}}(x)_i = \\frac{{e^{{x_i}}}}{{\\sum_{{j=1}}^{{n}} e^{{x_j}}}}
$$

## Moving a KVCache block

{FENCE}python
def transfer(blocks: list[bytes], engine) -> int:
    \"\"\"Send each block over RDMA; the number of bytes sent.\"\"\"
    return sum(engine.write(block) for block in blocks)  # one verb per block
{FENCE}

## The talk

https://www.youtube.com/watch?v=dQw4w9WgXcQ

## Results

| System | Year | Throughput (GB/s) |
|:-------|-----:|------------------:|
| Mooncake | 2024 | 190.5 |
| LMCache | 2024 | 87.2 |
"""
BODY_ZH = f"""实验室的机房、今年春天在这里的人，以及在这里运行的系统。

![](media:cluster)

## 实验室的春天

![](media:gallery/spring-2026)

## 注意力的代价

注意力的代价是序列长度 $n$ 的 $O(n^2)$；每个词元的权重是一个 softmax：

$$
\\mathrm{{softmax}}(x)_i = \\frac{{e^{{x_i}}}}{{\\sum_{{j=1}}^{{n}} e^{{x_j}}}}
$$

## 传输一个 KVCache 块

{FENCE}python
def transfer(blocks: list[bytes], engine) -> int:
    \"\"\"Send each block over RDMA; the number of bytes sent.\"\"\"
    return sum(engine.write(block) for block in blocks)  # one verb per block
{FENCE}

## 报告视频

https://www.youtube.com/watch?v=dQw4w9WgXcQ

## 结果

| 系统 | 年份 | 吞吐量（GB/s） |
|:-----|-----:|--------------:|
| Mooncake | 2024 | 190.5 |
| LMCache | 2024 | 87.2 |
"""
IMAGES = {
    "cluster": {
        "size": (2400, 1500),
        "alt": ("Four racks of GPU servers in the machine room", "机房里的四个 GPU 服务器机架"),
        "caption": ("The lab's cluster, spring 2026", "实验室的集群，2026 年春"),
    },
    "whiteboard": {
        "size": (1600, 1200),
        "alt": (
            "Three students at a whiteboard of cache diagrams",
            "三名学生在画满缓存示意图的白板前",
        ),
        "caption": ("Planning the transfer engine", "规划传输引擎"),
    },
}


def _saved(page):
    page.click("input[name=_save]")
    page.wait_for_load_state()
    assert not page.locator(".errornote").count(), page.locator(".errorlist").all_inner_texts()
    # the admin warns of any text that will not show as written: an unknown image, bad TeX
    assert not page.locator(".messagelist .warning").count(), page.locator(
        ".messagelist"
    ).inner_text()


def _upload_the_images_and_write_the_page(page, base, tmp_path):
    for name, image in IMAGES.items():
        photo = tmp_path / f"{name}.jpg"
        photo.write_bytes(factories.photo_bytes(image["size"]))
        page.goto(base + "/admin/media/mediaitem/add/")
        page.set_input_files("#id_image", str(photo))
        page.fill("#id_alt_en", image["alt"][0])
        page.fill("#id_alt_zh_hans", image["alt"][1])
        page.fill("#id_name", name)
        page.fill("#id_caption_en", image["caption"][0])
        page.fill("#id_caption_zh_hans", image["caption"][1])
        page.fill("#id_credit", "Photo: Lin Wei")
        _saved(page)

    page.goto(base + "/admin/media/gallery/add/")
    page.fill("#id_title_en", "Spring at the lab, 2026")
    page.fill("#id_title_zh_hans", "实验室的春天，2026")
    page.fill("#id_name", "spring-2026")
    for row, name in enumerate(IMAGES):
        page.fill(f"#id_entries-{row}-position", str(row + 1))
        pick(page, f"id_entries-{row}-item", name)
    _saved(page)

    page.goto(base + "/admin/website/page/add/")
    page.fill("#id_title_en", "Our machine room")
    page.fill("#id_title_zh_hans", "我们的机房")
    page.fill("#id_body_en", BODY_EN)
    page.fill("#id_body_zh_hans", BODY_ZH)
    page.check("#id_is_published")
    page.locator(".add-row a").first.click()  # "Add another place in the menu"
    page.fill("#id_menu_item-0-position", "15")
    _saved(page)


def _check_what_a_visitor_reads(visitor, language):
    """Each part of the body as the renderer makes it, in the visitor's language."""
    english = language == "en"
    body = visitor.locator(".prose")

    figure = body.locator("figure.figure")
    image = figure.locator("img")
    assert image.get_attribute("alt") == IMAGES["cluster"]["alt"][0 if english else 1]
    assert "1920w" in image.get_attribute("srcset")
    assert figure.locator("source[type='image/webp']").count() == 1
    caption = figure.locator("figcaption").inner_text()
    assert IMAGES["cluster"]["caption"][0 if english else 1] in caption
    assert "Photo: Lin Wei" in caption

    gallery = body.locator("figure.gallery")
    items = gallery.locator(".gallery__grid > li > figure.gallery__item")
    assert items.count() == 2
    assert [items.nth(n).locator("img").get_attribute("alt") for n in (0, 1)] == [
        IMAGES[name]["alt"][0 if english else 1] for name in IMAGES
    ]
    assert (
        items.nth(1)
        .locator("figcaption")
        .inner_text()
        .startswith(IMAGES["whiteboard"]["caption"][0 if english else 1])
    )
    title = "Spring at the lab, 2026" if english else "实验室的春天，2026"
    assert gallery.locator(":scope > figcaption").inner_text() == title
    gallery.scroll_into_view_if_needed()
    visitor.wait_for_function(
        "() => [...document.querySelectorAll('.prose img')]"
        ".every(img => img.complete && img.naturalWidth > 0)"
    )
    # the browser took a WebP rendition no wider than the screen needs
    assert image.evaluate("img => img.currentSrc").endswith(".webp")

    assert body.locator("math").count() == 3  # O(n^2), n and the softmax
    block = body.locator(".math-block math[display=block]")
    assert block.locator("mfrac").count() == 1
    assert block.evaluate("math => math.getBoundingClientRect().height") > 30  # typeset

    code = body.locator("pre.highlight code.language-python")
    assert code.locator("span.k", has_text="def").count() == 1
    assert code.locator("span.nf", has_text="transfer").count() == 1
    assert code.locator("span.sd").count() == 1  # the docstring
    assert code.evaluate("c => getComputedStyle(c.querySelector('.k')).color") != (
        code.evaluate("c => getComputedStyle(c.querySelector('.n')).color")
    )
    # the page's language gives prose its fonts; code keeps monospace, formulas their font
    fonts = body.evaluate(
        """b => ["p", "code .k", "code .sd", ".math-block mi"].map(
            (s) => getComputedStyle(b.querySelector(s)).fontFamily)"""
    )
    assert fonts[0].startswith('"PingFang SC"') == (not english), fonts
    assert fonts[1] == fonts[2] and fonts[1].endswith("monospace"), fonts
    assert fonts[3] == "math", fonts

    frame = body.locator(".video iframe")
    assert frame.get_attribute("src") == "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"
    assert frame.get_attribute("title") == ("Video on YouTube" if english else "YouTube 上的视频")
    assert frame.get_attribute("allow") == "fullscreen; picture-in-picture"
    width, height = frame.evaluate("f => [f.clientWidth, f.clientHeight]")
    assert abs(width / height - 16 / 9) < 0.02

    table = body.locator(".table-scroll table")
    assert table.locator("thead th").all_inner_texts()[0] == ("System" if english else "系统")
    assert table.locator("tbody tr").count() == 2
    assert table.locator("td.align-right").first.inner_text() == "2024"


def test_a_lab_admin_writes_a_page_with_media_math_code_a_video_and_a_table_in_two_languages(
    lab_admin_page, browser, live_server, tmp_path
):
    _upload_the_images_and_write_the_page(lab_admin_page, live_server.url, tmp_path)
    assert MediaItem.objects.count() == 2
    assert [e.item.name for e in Gallery.objects.get().entries.all()] == list(IMAGES)
    page_row = Page.objects.get()
    assert page_row.is_published and page_row.menu_item.position == 15
    assert page_row.get_absolute_url() == "/our-machine-room/"

    shots = os.environ.get("SCREENSHOTS")
    console = []  # what the browser logs: a CSP violation is reported there too
    for width, height in ((1280, 900), (390, 844)):
        for scheme in ("light", "dark"):
            context = browser.new_context(
                viewport={"width": width, "height": height}, color_scheme=scheme
            )
            context.add_init_script(RECORD_VIOLATIONS)
            serve_media(context)
            answer_video_players(context)
            visitor = context.new_page()
            visitor.on("console", lambda message: console.append(message.text))
            for language, prefix in (("en", ""), ("zh-hans", "/zh-hans")):
                visitor.goto(f"{live_server.url}{prefix}/news/")
                if width < 761:
                    visitor.locator("summary.site-menu__button").click()
                title = "Our machine room" if language == "en" else "我们的机房"
                visitor.locator(".site-nav a", has_text=title).click()
                visitor.wait_for_load_state()
                assert visitor.url == f"{live_server.url}{prefix}/our-machine-room/"
                assert visitor.locator("h1").inner_text() == title

                _check_what_a_visitor_reads(visitor, language)

                # the player's frame loads once scrolled to (it is lazy): the CSP let it in
                visitor.locator(".video").scroll_into_view_if_needed()
                visitor.frame_locator(".video iframe").locator("#player").wait_for()
                assert visitor.evaluate("window.__violations") == [], (language, width, scheme)
                excess, culprit = sideways_overflow(visitor)
                assert excess == 0, (language, width, scheme, culprit)
                if shots:
                    visitor.screenshot(
                        path=f"{shots}/page-{language}-{width}-{scheme}.png", full_page=True
                    )
            context.close()
    assert not [line for line in console if "Content Security Policy" in line]
