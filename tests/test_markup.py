"""The one Markdown renderer (core/markup/): hostile text is bounded at save and cheap to
show, and Markdown as people write it elsewhere (nested lists, footnotes, tables, headings,
code, math, video, images) comes out as they expect, sanitised."""

import re
import sys

import pytest
from django.conf import settings as django_settings
from django.core.exceptions import ValidationError

from core import markup
from tests import factories
from tests.admin_forms import form_data

pytestmark = pytest.mark.django_db

# A budget of Python calls (functions and builtins) for rendering 50 KB: about twice what
# 50 KB of ordinary prose with emphasis and links takes (110,000). Python-Markdown spent a
# minute on the first of these texts, markdown-it-py millions of calls on most. Counting
# calls keeps wall-clock time out of the test; bench/markdown_hostile.py times each shape.
CALL_BUDGET = 250_000
N = 50_000
HOSTILE = {
    "open brackets": "[" * N,
    "images": "![" * (N // 2),
    "footnote references": "[^" * (N // 2),
    "link openers": "[a](" * (N // 4),
    "nested emphasis": "*a**a" * (N // 5),
    "backtick runs": "".join("`" * k + " " for k in range(1, 320))[:N],
    "nested lists": "".join("  " * k + "- a\n" for k in range(N))[:N],
    "nested quotes": ">" * N,
    "angle brackets": "<" * N,
    "raw tags": "<a" * (N // 2),
    "dollars": "$a" * (N // 2),
    "math openers": "\\(" * (N // 2),
    "table rows": "|a|b|\n|-|-|\n" + "|x|y|\n" * (N // 6),
    "raw nesting": "<div>" * (N // 5),
}


class OverBudget(Exception):
    pass


def calls_to(render, text):
    """Python calls `render(text)` makes, stopping it once past CALL_BUDGET."""
    count = 0

    def counter(_frame, event, _arg):
        nonlocal count
        if event in ("call", "c_call"):
            count += 1
            if count > CALL_BUDGET:
                raise OverBudget

    markup.forget_rendered()
    sys.setprofile(counter)
    try:
        render(text)
    except OverBudget:
        pass
    finally:
        sys.setprofile(None)
    return count


@pytest.fixture(autouse=True)
def fresh_memo():
    markup.forget_rendered()
    yield
    markup.forget_rendered()


@pytest.mark.parametrize("shape", HOSTILE)
def test_50_kb_of_hostile_markdown_renders_within_budget_in_a_news_item_a_bio_and_a_post(
    shape,
):
    text = HOSTILE[shape]

    assert calls_to(markup.render_inline_markdown, text) <= CALL_BUDGET  # a news item
    assert calls_to(markup.render_markdown, text) <= CALL_BUDGET  # a bio
    assert calls_to(markup.render_page_markdown, text) <= CALL_BUDGET  # a post's body


def test_50_kb_in_a_news_item_or_a_bio_is_refused_at_save_and_fits_a_post():
    text = "[" * N
    news = factories.NewsItemFactory.build(person=None, text=text)
    person = factories.PersonFactory(bio=text)
    post = factories.PostFactory(body=text)

    with pytest.raises(ValidationError) as refused:
        news.full_clean()
    assert "at most 2000 characters (it has 50000)" in str(refused.value)
    with pytest.raises(ValidationError) as refused:
        person.full_clean()
    assert "at most 20000 characters (it has 50000)" in str(refused.value)
    post.full_clean()  # a post's body holds 100,000
    post.body = "x" * 100_001
    with pytest.raises(ValidationError):
        post.full_clean()


def test_the_post_page_with_50_kb_of_brackets_is_served(client, settings):
    settings.PAGE_CACHE = False
    post = factories.PostFactory(slug="brackets", body="[" * N, is_published=True)

    response = client.get(post.get_absolute_url())

    assert response.status_code == 200 and "[[[[" in response.content.decode()


def test_the_admin_refuses_a_news_item_beyond_its_size_with_a_message(admin_client):
    url = "/admin/people/newsitem/add/"
    data = form_data(admin_client.get(url), date="2026-06", text="x" * 2_001)

    response = admin_client.post(url, data)

    assert response.status_code == 200
    assert "Ensure this value has at most 2000 characters (it has 2001)." in (
        response.content.decode().replace("&#x27;", "'")
    )


def test_old_text_beyond_every_limit_is_shown_up_to_the_limit_and_named():
    html = str(markup.render_markdown("word " * 30_000))

    assert html.count("word") < 21_000 and "is not shown" in html


# ------------------------------------------------------------ Markdown as people write it


def test_lists_nested_by_two_or_four_spaces_stay_nested():
    two = str(markup.render_markdown("- a\n  - b\n    - c"))
    four = str(markup.render_markdown("1. a\n    - b"))

    assert re.sub(r"\s", "", two) == "<ul><li>a<ul><li>b<ul><li>c</li></ul></li></ul></li></ul>"
    assert re.sub(r"\s", "", four) == "<ol><li>a<ul><li>b</li></ul></li></ol>"


def test_footnotes_link_both_ways_with_ids_of_their_own_text():
    html = str(markup.render_markdown("A claim.[^1] Again.[^1]\n\n[^1]: The source."))
    other = str(markup.render_markdown("Another.[^1]\n\n[^1]: Another source."))

    (note,) = re.findall(r'<li id="(fn-[0-9a-f]+-1)">', html)
    refs = re.findall(r'<sup class="footnote-ref" id="([^"]+)"><a href="#([^"]+)"', html)
    assert [target for _ref, target in refs] == [note, note]
    for ref, _target in refs:
        assert f'href="#{ref}" class="footnote-backref"' in html
    assert note not in other  # two texts on one page keep their notes apart


def test_tables_are_scrollable_and_aligned_by_class_not_style():
    html = str(markup.render_markdown("| Name | Papers |\n|:--|--:|\n| Teng | 53 |"))

    assert html.startswith('<div class="table-scroll" tabindex="0"><table><thead>')
    assert (
        '<th class="align-right">Papers</th>' in html and '<td class="align-right">53</td>' in html
    )
    assert "style=" not in html


def test_headings_get_anchors_and_long_pages_a_table_of_contents():
    four = "# Why\n\ntext\n\n## How\n\n## What\n\n# Who\n"
    page = str(markup.render_page_markdown(four))
    short = str(markup.render_page_markdown("## One\n\n## Two\n\n## Three"))
    bio = str(markup.render_markdown(four))

    assert '<h2 id="why">Why</h2>' in page and '<h3 id="how">How</h3>' in page
    assert page.startswith('<nav class="toc" aria-label="Contents"><ol><li><a href="#why"')
    assert '<a href="#who"' in page
    assert "toc" not in short and '<h2 id="one">One</h2>' in short
    assert "toc" not in bio and '<h3 id="why">Why</h3>' in bio  # below the profile's sections


def test_fenced_code_is_highlighted_on_the_server_and_names_its_language():
    html = str(markup.render_markdown("```py\ndef f(x):\n    return '<b>'\n```"))
    unknown = str(markup.render_markdown("```nosuchlanguage\n<b>x</b>\n```"))
    raw = str(markup.render_markdown('<code class="language-python evil">x</code>'))

    assert html.startswith(
        '<pre class="highlight" tabindex="0"><code class="language-python">'
        '<span class="k">def</span>'
    )
    assert "<span class=\"s1\">'&lt;b&gt;'</span>" in html
    assert '<code class="language-python">x</code>' in raw  # a language, no other class
    assert (
        unknown == '<pre class="highlight" tabindex="0"><code>&lt;b&gt;x&lt;/b&gt;\n</code></pre>\n'
    )


def test_math_in_three_notations_becomes_mathml_and_bad_tex_a_message():
    html = str(markup.render_markdown("Inline $x^2$, \\(a_1*b*\\), and\n\n$$\\frac{1}{n}$$"))
    code = str(markup.render_markdown("`\\(not math\\)` costs $5 and $10"))
    bad = "$\\sqrt$"

    assert html.count("<math") == 3
    assert "<msup><mi>x</mi><mn>2</mn></msup>" in html and "<mfrac>" in html
    assert (
        '<span class="math-block"><math xmlns="http://www.w3.org/1998/Math/MathML" display="block">'
        in html
    )
    assert "<code>\\(not math\\)</code> costs $5 and $10" in code
    assert "<code>\\sqrt</code>" in str(markup.render_markdown(bad))
    assert markup.markdown_problems(bad) == [
        "The formula “\\sqrt” cannot be read (NoAvailableTokensError); it is shown as code."
    ]


@pytest.mark.parametrize(
    ("address", "player"),
    [
        ("https://www.youtube.com/watch?v=dQw4w9WgXcQ", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"),
        ("https://youtu.be/dQw4w9WgXcQ", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"),
        ("https://vimeo.com/76979871", "https://player.vimeo.com/video/76979871"),
        ("<https://www.bilibili.com/video/BV1GJ411x7h7/>", "https://player.bilibili.com/player.html?bvid=BV1GJ411x7h7"),
    ],
)  # fmt: skip
def test_a_video_address_on_its_own_line_becomes_a_player_with_few_powers(address, player):
    html = str(markup.render_markdown(f"Watch:\n\n{address}\n\nThen read."))

    (frame,) = re.findall(r"<iframe[^>]*>", html)
    assert f'src="{player.replace("&", "&amp;")}"' in frame
    assert 'title="Video on ' in frame and 'loading="lazy"' in frame
    assert 'allow="fullscreen; picture-in-picture"' in frame
    assert 'referrerpolicy="strict-origin-when-cross-origin"' in frame
    # no sandbox: the players need scripts and their own origin, a pair Nu refuses
    assert "sandbox" not in frame
    assert '<div class="video">' in html


def test_a_news_item_keeps_a_video_address_as_text_in_its_line():
    html = str(markup.render_inline_markdown("https://youtu.be/dQw4w9WgXcQ"))

    assert html == "https://youtu.be/dQw4w9WgXcQ"


def test_other_frames_and_addresses_stay_out():
    html = str(
        markup.render_markdown(
            "https://evil.example/watch?v=dQw4w9WgXcQ\n\n"
            '<iframe src="https://evil.example/x" title="x"></iframe>\n\n'
            "See https://www.youtube.com/watch?v=dQw4w9WgXcQ in the text."
        )
    )

    assert "<iframe" not in html and "evil.example/watch" in html


def test_the_csp_frames_only_the_video_players():
    frames = django_settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]["frame-src"]

    assert frames == [f"https://{host}" for host in markup.VIDEO_HOSTS]


def test_images_show_only_from_allowed_hosts_and_titled_ones_as_figures(settings):
    settings.MARKDOWN_IMAGE_HOSTS = ["images.example.org"]
    text = (
        '![The GPU cluster](https://images.example.org/c.png "Our cluster in 2024")\n\n'
        "Inline ![a logo](https://images.example.org/l.png) here.\n\n"
        "![A tracker](https://evil.example/t.png)"
    )

    html = str(markup.render_markdown(text))

    assert (
        '<figure class="figure"><img src="https://images.example.org/c.png" '
        'alt="The GPU cluster" loading="lazy"><figcaption>Our cluster in 2024</figcaption></figure>'
    ) in html
    assert '<img src="https://images.example.org/l.png" alt="a logo" loading="lazy">' in html
    assert "evil.example" not in html
    assert '<span class="media-missing">A tracker</span>' in html
    (problem,) = markup.markdown_problems(text)
    assert problem.startswith("The image “A tracker” (https://evil.example/t.png) is not shown")


def test_a_media_reference_shows_the_libraries_figure_or_its_alt_text_named():
    text = '![The lab in 2024](media:lab-photo "The lab")'
    assert '<span class="media-missing">The lab in 2024</span>' in str(markup.render_markdown(text))
    assert markup.markdown_problems(text) == [
        "The image “media:lab-photo” is not in the media library; its alt text is shown instead."
    ]

    def resolver(name, alt, title):
        if name != "lab-photo":
            return None
        return (
            f'<figure><picture><source type="image/webp" srcset="/media/lab-480.webp 480w, '
            f'/media/lab-960.webp 960w" sizes="100vw"><img src="/media/lab-960.jpg" '
            f'alt="{alt}" width="960" height="640" loading="lazy" decoding="async" '
            f'onerror="alert(1)"></picture><figcaption>{title}</figcaption></figure>'
            "<script>alert(1)</script>"
        )

    markup.register_media_resolver(resolver)
    try:
        html = str(markup.render_markdown(text))
        assert markup.markdown_problems(text) == []
    finally:
        markup.unregister_media_resolver(resolver)

    assert (
        '<figure><picture><source type="image/webp" srcset="/media/lab-480.webp 480w, '
        '/media/lab-960.webp 960w" sizes="100vw"><img src="/media/lab-960.jpg" '
        'alt="The lab in 2024" width="960" height="640" loading="lazy" decoding="async">'
        "</picture><figcaption>The lab</figcaption></figure>"
    ) in html
    assert "<script" not in html and "onerror" not in html and "<p><figure" not in html


def test_scripts_handlers_and_script_links_are_removed():
    html = str(
        markup.render_markdown(
            '<script>alert(1)</script><img src="/media/x.png" onerror="alert(1)">\n\n'
            '[x](javascript:alert(1)) <a href="https://ok.example" onclick="x()">ok</a>'
        )
    )

    assert "<script" not in html and "onerror" not in html and "onclick" not in html
    assert "javascript:" not in html and '<a href="https://ok.example"' in html


def test_every_markdown_field_says_what_it_takes_and_no_longer_that_images_are_removed():
    from people.models import ExtraSection
    from talks.models import Talk
    from website.models import Course, Page, Post, Theme

    for model, name in [
        (Page, "body_en"),
        (Post, "body_en"),
        (Theme, "body_en"),
        (Course, "description_en"),
        (Talk, "description"),
        (ExtraSection, "body"),
    ]:
        assert model._meta.get_field(name).help_text == markup.MARKDOWN_HELP
    assert "images are removed" not in markup.MARKDOWN_HELP


def test_the_admin_warns_of_an_image_it_will_not_show_and_keeps_the_text(admin_client):
    page = factories.PageFactory(title="Research", body="Old.")
    url = f"/admin/website/page/{page.pk}/change/"
    body = "![A figure](https://evil.example/f.png)"

    response = admin_client.post(url, form_data(admin_client.get(url), body=body), follow=True)

    page.refresh_from_db()
    assert page.body == body
    messages = [str(m) for m in response.context["messages"]]
    assert any(
        "The image “A figure” (https://evil.example/f.png) is not shown" in m for m in messages
    )
