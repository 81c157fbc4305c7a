"""Talks and awards on /talks/, /awards/, talk pages and profiles."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from talks.models import Award, Talk
from tests.factories import (
    AwardFactory,
    PersonFactory,
    RecipientFactory,
    SpeakerFactory,
    TalkFactory,
    authored,
)

pytestmark = pytest.mark.django_db


def test_demo_profile_marks_chinese_talk_titles_as_chinese(client, demo):
    html = client.get("/people/teng-ma/").content.decode()

    assert '<span lang="zh-Hans">记忆感知的大模型KVCache优化</span>' in html  # Chinese only
    assert '<span><a href="/talks/x-rdma-effective-rdma-middleware' in html  # the page's own
    assert '<time datetime="2026-06">Jun 2026</time>' in html
    assert "Moderator / host" in html


def test_demo_profile_shows_honors_by_year_with_details(client, demo):
    html = client.get("/people/teng-ma/").content.decode()
    honors = html[html.index('id="awards-heading"') :]

    assert 'ChinaSys Best Poster</strong> <span class="award__detail">(5/88)</span>' in honors
    assert "(80K RMB)" in honors
    years = [honors.index(f'datetime="{y}"') for y in ("2026", "2024", "2023", "2018", "2015")]
    assert years == sorted(years)


def test_demo_best_paper_shows_on_profile_paper_and_awards_page(client, demo):
    badge = '<span class="badge badge--award">Best Paper</span>'
    profile = client.get("/people/feng-ren/").content.decode()
    fast_entry = profile[profile.index("Mooncake: Trading More Storage") :]
    awards = client.get("/awards/").content.decode()
    paper_url = awards.split('For <a href="')[1].split('"')[0]

    assert badge in fast_entry[: fast_entry.index("</li>")]
    assert "Best Paper" in profile[profile.index('id="awards-heading"') :]
    assert paper_url.startswith("/publications/mooncake-trading-more-storage")
    assert badge in client.get(paper_url).content.decode()
    assert badge in client.get("/publications/?venue=FAST").content.decode()


def test_talk_with_two_speakers_is_on_both_profiles(client):
    teng = PersonFactory(name="Teng Ma", slug="teng-ma")
    feng = PersonFactory(name="Feng Ren", slug="feng-ren")
    talk = TalkFactory(title="Mooncake Transfer Engine Deep Dive")
    SpeakerFactory(talk=talk, person=teng, position=1)
    SpeakerFactory(talk=talk, person=feng, position=2)

    teng_page = client.get("/people/teng-ma/").content.decode()
    feng_page = client.get("/people/feng-ren/").content.decode()

    assert "Mooncake Transfer Engine Deep Dive" in teng_page
    assert 'with <a href="/people/feng-ren/">Feng Ren</a>' in teng_page
    assert 'with <a href="/people/teng-ma/">Teng Ma</a>' in feng_page
    assert f'href="{talk.get_absolute_url()}"' in teng_page  # two speakers: it has a page


def test_talks_are_grouped_by_year_newest_first_and_filterable(client):
    teng = PersonFactory(slug="teng-ma")
    feng = PersonFactory(slug="feng-ren")
    SpeakerFactory(person=teng, talk__title="记忆感知", talk__date="2026-06")
    SpeakerFactory(
        person=teng, talk__title="X-RDMA talk", talk__date="2019-09", talk__kind="conference"
    )
    SpeakerFactory(person=feng, talk__title="Mooncake", talk__date="2025-05")

    def titles(query=""):
        return [t.title for t in client.get(f"/talks/{query}").context["talks"]]

    assert titles() == ["记忆感知", "Mooncake", "X-RDMA talk"]
    assert titles("?person=feng-ren") == ["Mooncake"]
    assert titles("?kind=conference") == ["X-RDMA talk"]
    assert titles("?language=zh") == ["记忆感知"]
    html = client.get("/talks/").content.decode()
    assert (
        html.index('id="year-2026"') < html.index('id="year-2025"') < html.index('id="year-2019"')
    )
    assert '<option value="zh">Chinese</option>' in html


def test_talk_page_shows_place_links_and_paper(client):
    paper = authored(None, ["T Ma"], at=0, title="HydraRPC: RPC in the CXL Era")
    talk = TalkFactory(title="HydraRPC", host="Samsung", city="San Jose, CA", country="USA",
                       slides_url="https://example.org/slides.pdf", publication=paper)  # fmt: skip

    html = client.get(talk.get_absolute_url()).content.decode()

    assert "Samsung</span> · San Jose, CA, USA" in html
    assert 'href="https://example.org/slides.pdf">Slides</a>' in html
    assert f'href="{paper.get_absolute_url()}"' in html


def test_a_talks_description_is_its_pages_text_whose_headings_follow_the_title(client):
    """The description stands under the talk's h1 (no section heading between): its top
    heading is an h2, as on a page or a course, not an h3 that skips a level."""
    talk = TalkFactory(description="### What we showed\n\nA live demo.\n\n#### Setup\n\nTwo racks.")

    html = client.get(talk.get_absolute_url()).content.decode()

    assert '<h2 id="what-we-showed">What we showed</h2>' in html
    assert '<h3 id="setup">Setup</h3>' in html


def test_unpublished_talks_and_awards_are_hidden(client):
    teng = PersonFactory(slug="teng-ma")
    SpeakerFactory(person=teng, talk__title="Secret Talk", talk__is_published=False)
    RecipientFactory(person=teng, award__name="Secret Award", award__is_published=False)

    assert "Secret Talk" not in client.get("/talks/").content.decode()
    assert "Secret Award" not in client.get("/awards/").content.decode()
    assert "Secret" not in client.get("/people/teng-ma/").content.decode()
    assert client.get(Talk.objects.get().get_absolute_url()).status_code == 404


def test_awards_filter_by_person_and_kind(client):
    teng = PersonFactory(slug="teng-ma")
    RecipientFactory(person=teng, award__name="National Scholarship", award__kind="scholarship")
    RecipientFactory(award__name="Someone Else's Prize")

    def names(query=""):
        return [a.name for a in client.get(f"/awards/{query}").context["awards"]]

    assert sorted(names()) == ["National Scholarship", "Someone Else's Prize"]
    assert names("?person=teng-ma") == ["National Scholarship"]
    assert names("?kind=scholarship") == ["National Scholarship"]


def test_outside_speakers_and_recipients_print_by_name(client):
    talk = TalkFactory(title="Panel")
    SpeakerFactory(talk=talk, person=None, name="Yongwei Wu", position=1)
    award = AwardFactory(name="Team Prize")
    RecipientFactory(award=award, person=None, name="Mingxing Zhang")

    assert "Yongwei Wu" in client.get("/talks/").content.decode()
    assert "Mingxing Zhang" in client.get("/awards/").content.decode()


def _queries(client, url):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


@pytest.mark.parametrize("url", ["/talks/", "/awards/", "/people/teng-ma/"])
def test_query_counts_do_not_depend_on_the_number_of_talks_and_awards(client, url):
    teng = PersonFactory(slug="teng-ma")
    for n in range(3):
        SpeakerFactory(person=teng, talk__title=f"Talk {n}")
        RecipientFactory(person=teng, award__name=f"Award {n}")
    client.get(url)
    few = _queries(client, url)
    for n in range(40):
        talk = SpeakerFactory(person=teng, talk__title=f"More {n}").talk
        SpeakerFactory(talk=talk, person=None, name="Guest Speaker")
        RecipientFactory(person=teng, award__name=f"More {n}")

    assert _queries(client, url) == few


def test_an_award_without_a_date_is_listed_last_under_its_own_heading(client):
    undated = Award(name="Outstanding Reviewer")
    undated.full_clean()
    undated.save()
    AwardFactory(name="Best Paper", date="2025-06")
    AwardFactory(name="Scholarship", date="2019")

    html = client.get("/awards/").content.decode()

    headings = re.findall(r'<h2 id="year-([^"]+)" class="year-heading">([^<]+)</h2>', html)
    assert headings == [("2025", "2025"), ("2019", "2019"), ("undated", "Year not stated")]
    assert html.index("Scholarship") < html.index("Outstanding Reviewer")
    assert '<span class="dated-list__date"></span>' in html
