"""The site in English and Chinese: every interface string translated, the language in the
address, a language menu and hreflang alternates on every page, text kept in two languages
falling back to the other one marked with its own `lang`, and the admin in Chinese."""

import re

import pytest
from django.db import connection
from django.template.base import Lexer, TokenType
from django.test.utils import CaptureQueriesContext

from lab.models import LabSettings
from labsite import catalogs
from labsite.i18n import model_texts
from people.models import Person
from talks.models import Talk
from tests import factories
from tests.admin_forms import form_data
from tests.sitemaps import whole_sitemap

pytestmark = pytest.mark.django_db

ZH = "zh_Hans"


# ------------------------------------------------------------------ the catalogs


def test_every_public_template_string_has_a_chinese_translation():
    translated = catalogs.read(ZH)
    untranslated = []
    for path in catalogs.PUBLIC_TEMPLATES:
        for line, _function, message, context in catalogs.template_messages(path):
            entry = translated.get(message[0] if isinstance(message, tuple) else message, context)
            strings = entry.string if entry else ""
            done = all(strings) if isinstance(strings, tuple) else bool(strings)
            if not done or entry.fuzzy:
                untranslated.append(f"{path.name}:{line}: {message!r}")
    assert untranslated == []


# Words that are the same in every language: names of formats and services.
SAME_IN_EVERY_LANGUAGE = {"ORCID"}
_TAG = re.compile(r"<[^>]*>")
_READ_ATTRIBUTE = re.compile(r'\b(?:aria-label|title|alt|placeholder)="([^"]*)"')
_WORD = re.compile(r"[A-Za-z][A-Za-z'’]+")
_ENTITY = re.compile(r"&#?\w+;")


def _untranslated_words(source: str) -> list[str]:
    """Words a visitor reads that a template writes outside the translation tags: text
    between tags and the attributes screen readers and tooltips read."""
    written, depth = [], 0
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0]
            depth += name in ("blocktranslate", "blocktrans", "comment")
            depth -= name in ("endblocktranslate", "endblocktrans", "endcomment")
            written.append(" ")
        elif token.token_type == TokenType.TEXT and not depth:
            written.append(token.contents)
        else:
            written.append(" ")  # a value, or text inside a translation or comment
    page = _ENTITY.sub(" ", "".join(written))
    readable = _TAG.sub(" ", page) + " " + " ".join(_READ_ATTRIBUTE.findall(page))
    return [w for w in _WORD.findall(readable) if w not in SAME_IN_EVERY_LANGUAGE]


def test_public_templates_write_no_text_outside_the_translation_tags():
    found = {
        path.relative_to(catalogs.TEMPLATES).as_posix(): words
        for path in catalogs.PUBLIC_TEMPLATES
        if (words := _untranslated_words(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_untranslated_text_check_finds_a_hard_coded_heading():
    assert _untranslated_words('<h2 aria-label="Main">Abstract</h2>') == ["Abstract", "Main"]
    assert _untranslated_words('<h2>{% translate "Abstract" %}</h2>') == []


def test_the_compiled_catalog_is_the_catalog_compiled():
    mo = catalogs.po_path(ZH).with_suffix(".mo")
    assert mo.exists(), "run `manage.py catalogs compile`"
    assert mo.read_bytes() == catalogs.compiled(ZH), "stale: run `manage.py catalogs compile`"


# ------------------------------------------------------------------ public pages


@pytest.fixture
def teng_ma(settings):
    """A member with an English-only bio, a co-first and corresponding paper, and a talk."""
    settings.PAGE_CACHE = False
    person = factories.PersonFactory(
        slug="teng-ma", name="Teng Ma", native_name="马腾", bio="Builds *RDMA* systems."
    )
    paper = factories.PublicationFactory(title="Mooncake", date="2026-06")
    factories.AuthorshipFactory(publication=paper, position=1, is_equal_contribution=True)
    factories.AuthorshipFactory(
        publication=paper, person=person, position=2, is_equal_contribution=True
    )
    corresponding = factories.PublicationFactory(title="Pooling", date="2023-12")
    factories.AuthorshipFactory(
        publication=corresponding, person=person, position=1, is_corresponding=True
    )
    factories.ExperienceFactory(person=person, start="2023-12", end=None)
    factories.NewsItemFactory(person=person, date="2026-06", text="Mooncake at FAST.")
    return person


def test_the_chinese_profile_is_chinese_where_the_interface_speaks(client, teng_ma):
    html = client.get("/zh-hans/people/teng-ma/").content.decode()

    assert '<html lang="zh-Hans">' in html
    for badge in ("共同一作", "通讯作者", "第一作者"):  # co-first, corresponding, 1st author
        assert f'<span class="badge badge--role">{badge}</span>' in html
    for heading in ("论文", "工作经历"):  # publications, experience
        assert f'-heading">{heading}</h2>' in html
    assert "2026年6月" in html and "2023年12月 – 至今" in html
    assert "类型：" in html and "作者角色：" in html  # the filters
    assert "Co-first" not in html and "Jun 2026" not in html and "Present" not in html


def test_an_english_only_bio_falls_back_marked_as_english(client, teng_ma):
    html = client.get("/zh-hans/people/teng-ma/").content.decode()

    assert '<div class="prose" lang="en"><p>Builds <em>RDMA</em> systems.</p>' in html


def test_a_chinese_bio_is_shown_on_the_chinese_page_and_the_english_one_on_the_english(
    client, teng_ma
):
    teng_ma.bio_zh_hans = "构建 RDMA 系统。"
    teng_ma.save()

    chinese = client.get("/zh-hans/people/teng-ma/").content.decode()
    english = client.get("/people/teng-ma/").content.decode()

    assert '<div class="prose"><p>构建 RDMA 系统。</p>' in chinese
    assert '<div class="prose"><p>Builds <em>RDMA</em> systems.</p>' in english


def test_the_chinese_profile_costs_the_queries_of_the_english_one(client, teng_ma):
    counts = {}
    for url in ("/people/teng-ma/", "/zh-hans/people/teng-ma/"):
        client.get(url)  # the lab settings row and caches, once
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts[url] = len(queries)
    assert counts["/people/teng-ma/"] == counts["/zh-hans/people/teng-ma/"]


@pytest.mark.parametrize(
    "english", ["/", "/people/", "/people/teng-ma/", "/publications/", "/talks/", "/news/"]
)
def test_each_page_names_itself_in_both_languages_and_offers_the_other(client, teng_ma, english):
    chinese = "/zh-hans" + english
    for url, other, other_lang in ((english, chinese, "zh-Hans"), (chinese, english, "en")):
        html = client.get(url).content.decode()
        assert f'<link rel="alternate" hreflang="en" href="http://testserver{english}">' in html
        assert (
            f'<link rel="alternate" hreflang="zh-Hans" href="http://testserver{chinese}">' in html
        )
        assert f'<link rel="alternate" hreflang="x-default" href="http://testserver{english}">'
        assert f'<a href="{other}" hreflang="{other_lang}" lang="{other_lang}">' in html


def test_the_language_menu_keeps_a_filter(client, teng_ma):
    html = client.get("/publications/?kind=journal").content.decode()

    assert '<a href="/zh-hans/publications/?kind=journal" hreflang="zh-Hans"' in html


def test_english_pages_stay_unprefixed_whatever_the_browser_asks(client, teng_ma):
    response = client.get("/people/teng-ma/", HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9")

    assert response.status_code == 200
    assert '<html lang="en">' in response.content.decode()
    assert "Accept-Language" not in response.headers.get("Vary", "")


def test_the_sitemap_lists_each_page_in_both_languages(client, teng_ma):
    xml = whole_sitemap(client)

    assert "<loc>http://testserver/people/teng-ma/</loc>" in xml
    assert "<loc>http://testserver/zh-hans/people/teng-ma/</loc>" in xml
    assert (
        '<xhtml:link rel="alternate" hreflang="zh-hans" '
        'href="http://testserver/zh-hans/people/teng-ma/"/>' in xml
    )


def test_the_lab_name_in_chinese_and_its_missing_tagline_marked_english(client, teng_ma):
    lab = LabSettings.load()
    lab.name_zh_hans = "系统实验室"
    lab.tagline = "Systems for LLM serving"
    lab.save()

    html = client.get("/zh-hans/").content.decode()

    assert "<h1>系统实验室</h1>" in html
    assert '<p class="hero__tagline" lang="en">Systems for LLM serving</p>' in html


def test_a_talk_titled_only_in_chinese_is_marked_chinese_on_the_english_page(client, teng_ma):
    talk = factories.TalkFactory(title="", title_zh_hans="记忆感知的大模型KVCache优化")
    factories.SpeakerFactory(talk=talk, person=teng_ma)

    html = client.get("/talks/").content.decode()

    assert '<span lang="zh-Hans">记忆感知的大模型KVCache优化</span>' in html or (
        'lang="zh-Hans">记忆感知的大模型KVCache优化' in html
    )


def test_a_talk_needs_a_title_in_one_of_the_languages():
    talk = Talk(title_en="", title_zh_hans="", date="2026")
    with pytest.raises(Exception, match="in English or Chinese"):
        talk.full_clean()


def test_chinese_feeds_speak_chinese(client, teng_ma):
    rss = client.get("/zh-hans/publications/feed/").content.decode()

    assert "<title>" in rss and "：论文</title>" in rss


# ------------------------------------------------------------------ the admin


def test_the_admin_follows_a_chinese_browser(admin_client):
    html = admin_client.get("/admin/", HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9").content.decode()

    assert "修改密码" in html  # Django's "Change password"


def test_an_editor_switches_the_admin_to_chinese_and_back(admin_client):
    response = admin_client.post("/i18n/setlang/", {"language": "zh-hans", "next": "/admin/"})
    assert response.status_code == 302 and response["Location"] == "/admin/"
    assert "修改密码" in admin_client.get("/admin/").content.decode()

    admin_client.post("/i18n/setlang/", {"language": "en", "next": "/admin/"})
    assert "Change password" in admin_client.get("/admin/").content.decode()


def test_the_admin_edits_both_languages_side_by_side(admin_client):
    person = factories.PersonFactory()
    url = f"/admin/people/person/{person.pk}/change/"
    page = admin_client.get(url)
    html = page.content.decode()

    row = re.search(r'<div class="form-row[^"]*field-bio_en field-bio_zh_hans', html)
    assert row, "bio in English and Chinese share a row"
    assert "Bio (English)" in html and "Bio (简体中文)" in html

    admin_client.post(url, form_data(page, bio_zh_hans="做系统的人。"))
    person.refresh_from_db()
    assert person.bio_zh_hans == "做系统的人。"


def test_every_language_column_is_labelled_with_its_language():
    labels = [str(Person._meta.get_field(f).verbose_name) for f in ("bio_en", "bio_zh_hans")]
    assert labels == ["bio (English)", "bio (简体中文)"]


def test_the_admin_in_chinese_labels_fields_sections_and_help_in_chinese(admin_client):
    person = factories.PersonFactory()
    admin_client.post("/i18n/setlang/", {"language": "zh-hans", "next": "/admin/"})

    html = admin_client.get(f"/admin/people/person/{person.pk}/change/").content.decode()

    assert "主页栏目" in html  # "Sections of the profile"
    assert "个人简介 (English)" in html and "个人简介 (简体中文)" in html  # bio
    assert "邀请和实验室的邮件发往此地址" in html  # the e-mail field's help
    assert "Sections of the profile" not in html


def test_every_model_label_and_help_has_a_chinese_translation():
    translated = catalogs.read(ZH)
    assert [t for t in model_texts() if not (translated.get(t) and translated.get(t).string)] == []


def test_each_language_of_a_page_is_cached_as_its_own_page(client, teng_ma, settings):
    settings.PAGE_CACHE = True
    LabSettings.load()  # made on first use: a change, which would empty the cache
    for url, lang in (("/zh-hans/people/teng-ma/", "zh-Hans"), ("/people/teng-ma/", "en")):
        first, second = client.get(url), client.get(url)
        assert (first["X-Page-Cache"], second["X-Page-Cache"]) == ("miss", "hit")
        assert f'<html lang="{lang}">' in second.content.decode()
        assert second["Content-Language"] == lang.lower()


def test_a_chinese_title_typed_in_the_english_column_is_marked_chinese(client, teng_ma):
    talk = factories.TalkFactory(title="记忆感知的大模型KVCache优化")
    factories.SpeakerFactory(talk=talk, person=teng_ma)
    english_bio = factories.PersonFactory(slug="wu", bio="Advised by 吴永卫 at Tsinghua.")

    talks = client.get("/talks/").content.decode()
    bio = client.get(f"/zh-hans/people/{english_bio.slug}/").content.decode()

    assert 'lang="zh">记忆感知的大模型KVCache优化' in talks
    assert '<div class="prose" lang="en"><p>Advised by 吴永卫' in bio
