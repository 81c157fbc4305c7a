"""Every feed the site serves is valid as its format's specification and the W3C feed
validator read it: the posts' Atom feed by RFC 4287 (a feed and each entry with its id,
title and `updated`, an author for each entry, a link), the news and publications RSS 2.0
feeds by the RSS 2.0 specification (a channel's title, link and description; an item's
title or description), and each read by feedparser without complaint (its `bozo`)."""

import datetime
import re
import xml.etree.ElementTree as ET

import feedparser
import pytest

from tests import factories

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"
# RFC 3339's date-time, as RFC 4287 §3.3 requires ("T" and "Z" in upper case)
RFC3339 = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")


def _atom_problems(xml):
    """What RFC 4287 requires and the document lacks, as sentences."""
    root = ET.fromstring(xml)
    problems = []
    if root.tag != f"{ATOM}feed":
        return ["the root is not atom:feed"]

    def check(element, where, *, author_from_feed):
        for name in ("id", "title", "updated"):
            found = element.findall(f"{ATOM}{name}")
            if len(found) != 1:
                problems.append(f"{where} has {len(found)} atom:{name}")
        updated = element.find(f"{ATOM}updated")
        if updated is not None and not RFC3339.match(updated.text or ""):
            problems.append(f"{where}'s updated is not an RFC 3339 date: {updated.text}")
        published = element.find(f"{ATOM}published")
        if published is not None and not RFC3339.match(published.text or ""):
            problems.append(f"{where}'s published is not an RFC 3339 date")
        authors = element.findall(f"{ATOM}author")
        if not authors and not author_from_feed:
            problems.append(f"{where} has no atom:author and the feed names none")
        for author in authors:
            if not (author.findtext(f"{ATOM}name") or "").strip():
                problems.append(f"{where} has an author without a name")
        alternates = [
            (link.get("type"), link.get("hreflang"))
            for link in element.findall(f"{ATOM}link")
            if link.get("rel", "alternate") == "alternate"
        ]
        if len(alternates) != len(set(alternates)):
            problems.append(f"{where} has two alternate links of one type and language")
        return bool(authors)

    feed_has_author = check(root, "the feed", author_from_feed=False)
    if not root.findall(f"{ATOM}link[@rel='self']"):
        problems.append("the feed has no self link (the W3C validator asks for one)")
    ids = []
    for number, entry in enumerate(root.findall(f"{ATOM}entry"), start=1):
        check(entry, f"entry {number}", author_from_feed=feed_has_author)
        ids.append(entry.findtext(f"{ATOM}id"))
        content = entry.find(f"{ATOM}content")
        links = entry.findall(f"{ATOM}link")
        if content is None and not any(
            link.get("rel", "alternate") == "alternate" for link in links
        ):
            problems.append(f"entry {number} has neither content nor an alternate link")
        if content is not None and content.get("src") and entry.find(f"{ATOM}summary") is None:
            problems.append(f"entry {number} has out-of-line content and no summary")
    if len(ids) != len(set(ids)):
        problems.append("two entries share an id")
    return problems


def _rss_problems(xml):
    """What RSS 2.0 requires and the document lacks, as sentences."""
    root = ET.fromstring(xml)
    if root.tag != "rss" or root.get("version") != "2.0":
        return ["the root is not rss version 2.0"]
    channel = root.find("channel")
    problems = [
        f"the channel has no {name}"
        for name in ("title", "link", "description")
        if not (channel.findtext(name) or "").strip()
    ]
    if not channel.findall(f"{ATOM}link[@rel='self']"):
        problems.append("the channel has no atom:link rel=self (the W3C validator asks)")
    for number, item in enumerate(channel.findall("item"), start=1):
        if not (item.findtext("title") or item.findtext("description")):
            problems.append(f"item {number} has neither title nor description")
        for date in item.findall("pubDate"):
            try:
                datetime.datetime.strptime(date.text, "%a, %d %b %Y %H:%M:%S %z")
            except ValueError:
                problems.append(f"item {number}'s pubDate is not RFC 822: {date.text}")
    return problems


@pytest.fixture
def content(person):
    """A post by a member, a post nobody is named on, a news item and a paper."""
    post = factories.PostFactory(
        slug="mooncake-is-open-source",
        title="Mooncake is open source",
        date=datetime.date(2024, 11, 28),
    )
    factories.PostAuthorFactory(post=post, person=person)
    factories.PostFactory(slug="retreat", title="Lab retreat", date=datetime.date(2024, 6, 1))
    factories.NewsItemFactory()
    paper = factories.PublicationFactory(title="Mooncake")
    factories.AuthorshipFactory(publication=paper, person=person, position=1)
    return post


@pytest.mark.parametrize("address", ["/posts/feed/", "/zh-hans/posts/feed/"])
def test_the_posts_atom_feed_is_valid_atom_with_updated_on_every_entry(client, content, address):
    response = client.get(address)

    assert response["Content-Type"].startswith("application/atom+xml")
    assert _atom_problems(response.content) == []
    feed = feedparser.parse(response.content)
    assert not feed.bozo, feed.bozo_exception
    assert len(feed.entries) == 2
    assert all(entry.updated_parsed for entry in feed.entries)


def test_a_posts_entry_is_updated_when_the_post_is_edited_after_its_date(client, content):
    content.title = "Mooncake is open source (with the code)"
    content.save()

    root = ET.fromstring(client.get("/posts/feed/").content)

    entry = next(e for e in root.iter(f"{ATOM}entry") if "Mooncake" in e.findtext(f"{ATOM}title"))
    assert entry.findtext(f"{ATOM}published").startswith("2024-11-28T")
    updated = entry.findtext(f"{ATOM}updated")
    assert updated > "2024-11-29"  # edited today, after its date
    assert root.findtext(f"{ATOM}updated") == updated  # the feed's newest change


@pytest.mark.parametrize(
    "address", ["/news/feed/", "/publications/feed/", "/zh-hans/publications/feed/"]
)
def test_the_rss_feeds_are_valid_rss_2(client, content, address):
    response = client.get(address)

    assert _rss_problems(response.content) == []
    feed = feedparser.parse(response.content)
    assert not feed.bozo, feed.bozo_exception
    assert feed.version == "rss20"
    assert feed.entries
