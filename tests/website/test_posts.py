"""The lab's posts: a list, a page each, an Atom feed and each post on its authors'
profiles, in both languages; drafts and posts dated ahead nowhere."""

import datetime
import json
import re

import feedparser
import pytest

from tests import factories
from tests.sitemaps import whole_sitemap
from website.models import MenuItem

pytestmark = pytest.mark.django_db


@pytest.fixture
def written(person):
    """A post in both languages by `person` and an outside-the-lab co-author member."""
    post = factories.PostFactory(
        slug="mooncake-is-open-source",
        title="Mooncake is open source",
        title_zh_hans="Mooncake 开源了",
        date=datetime.date(2024, 11, 28),
        body="## The release\n\nThe **Transfer Engine**.<script>alert(1)</script>",
        body_zh_hans="## 发布内容\n\n**传输引擎**。",
    )
    factories.PostAuthorFactory(post=post, person=person, position=1)
    factories.PostAuthorFactory(post=post, person__name="Feng Ren", person__slug="feng-ren")
    return post


def test_a_post_shows_its_title_date_authors_and_sanitised_body_in_each_language(
    client, written, person
):
    english = client.get("/posts/mooncake-is-open-source/").content.decode()
    chinese = client.get("/zh-hans/posts/mooncake-is-open-source/").content.decode()

    assert "<h1>Mooncake is open source</h1>" in english
    assert '<time datetime="2024-11-28">' in english
    assert f'<a href="/people/{person.slug}/">{person.name}</a> and ' in english
    assert '<a href="/people/feng-ren/">Feng Ren</a>' in english
    assert '<h2 id="the-release">The release</h2>' in english
    assert "<strong>Transfer Engine</strong>" in english
    assert "<script>alert" not in english
    assert "<h1>Mooncake 开源了</h1>" in chinese
    assert '<h2 id="发布内容">发布内容</h2>' in chinese
    assert f'<a href="/zh-hans/people/{person.slug}/">' in chinese


def test_a_post_tells_search_engines_it_is_a_blog_posting_by_its_authors(client, written):
    html = client.get("/posts/mooncake-is-open-source/").content.decode()

    data = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', html)[1])

    assert data["@type"] == "BlogPosting"
    assert data["headline"] == "Mooncake is open source"
    assert data["datePublished"] == "2024-11-28"
    assert [a["url"] for a in data["author"]][1] == "http://testserver/people/feng-ren/"


def test_the_list_holds_published_posts_newest_first_and_no_draft_or_post_dated_ahead(
    client, written
):
    factories.PostFactory(title="Older news", date=datetime.date(2023, 1, 5))
    factories.PostFactory(title="Unfinished thoughts", is_published=False)
    tomorrow = datetime.date.today() + datetime.timedelta(days=1)
    factories.PostFactory(title="Tomorrow's announcement", date=tomorrow)

    html = client.get("/posts/").content.decode()

    assert html.index("Mooncake is open source") < html.index("Older news")
    assert "Unfinished thoughts" not in html
    assert "Tomorrow" not in html
    assert client.get("/posts/unfinished-thoughts/").status_code == 404
    assert "Mooncake 开源了" in client.get("/zh-hans/posts/").content.decode()


def test_a_post_written_in_english_only_is_marked_so_on_the_chinese_list(client):
    factories.PostFactory(slug="retreat", title="Lab retreat", body="We went hiking.")

    chinese = client.get("/zh-hans/posts/").content.decode()

    assert '<a href="/zh-hans/posts/retreat/" lang="en">Lab retreat</a>' in chinese


def test_the_atom_feed_holds_each_post_with_its_authors_and_whole_body(client, written):
    factories.PostFactory(title="Unfinished thoughts", is_published=False)

    feed = feedparser.parse(client.get("/posts/feed/").content)

    assert feed.version == "atom10"
    assert not feed.bozo
    assert [entry.title for entry in feed.entries] == ["Mooncake is open source"]
    entry = feed.entries[0]
    assert entry.link == "http://testserver/posts/mooncake-is-open-source/"
    assert entry.author == "Teng Ma, Feng Ren"
    assert "<strong>Transfer Engine</strong>" in entry.content[0].value
    assert "<script" not in entry.content[0].value
    assert entry.published_parsed[:3] == (2024, 11, 28)


def test_a_member_s_posts_show_on_their_profile_and_a_draft_does_not(client, written, person):
    draft = factories.PostFactory(title="Unfinished thoughts", is_published=False)
    factories.PostAuthorFactory(post=draft, person=person)

    html = client.get(f"/people/{person.slug}/").content.decode()

    assert '<h2 id="posts-heading">Posts</h2>' in html
    assert '<a href="/posts/mooncake-is-open-source/">Mooncake is open source</a>' in html
    assert "Unfinished thoughts" not in html
    other = client.get("/people/feng-ren/").content.decode()
    assert "Mooncake is open source" in other


def test_a_profile_without_posts_has_no_posts_section(client, person):
    assert 'id="posts"' not in client.get(f"/people/{person.slug}/").content.decode()


def test_posts_join_the_menu_when_the_lab_admin_places_them(client, written):
    assert 'href="/posts/"' not in client.get("/news/").content.decode()  # (then cached)

    MenuItem.objects.create(section="posts", position=55)

    assert '<a href="/posts/">Posts</a>' in client.get("/").content.decode()
    assert '<a href="/zh-hans/posts/">文章</a>' in client.get("/zh-hans/").content.decode()


def test_the_sitemap_lists_the_posts_page_and_each_published_post(client, written):
    factories.PostFactory(slug="draft-post", is_published=False)

    sitemap = whole_sitemap(client)

    assert "<loc>http://testserver/posts/</loc>" in sitemap
    assert "<loc>http://testserver/zh-hans/posts/mooncake-is-open-source/</loc>" in sitemap
    assert "draft-post" not in sitemap


def test_a_lab_without_posts_offers_no_posts_page_in_its_sitemap(client):
    assert "/posts/" not in whole_sitemap(client)


def test_the_posts_pages_query_counts_do_not_grow_with_the_posts(
    client, django_assert_max_num_queries, person, site_rows
):
    for number in range(12):
        post = factories.PostFactory(slug=f"note-{number}")
        factories.PostAuthorFactory(post=post, person=person)
        factories.PostAuthorFactory(post=post)

    # content version, lab settings, the menu, the tag filter's choices, the count, the
    # posts (with their featured images), their authors, their tags
    with django_assert_max_num_queries(8):
        assert client.get("/posts/").status_code == 200
    # content version, lab settings, the menu, the post, its authors, its tags
    with django_assert_max_num_queries(6):
        assert client.get("/posts/note-3/").status_code == 200
    # lab settings, the posts, their authors
    with django_assert_max_num_queries(4):
        assert client.get("/posts/feed/").status_code == 200
