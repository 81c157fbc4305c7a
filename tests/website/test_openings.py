"""The lab's openings: listed until their deadline (the lab's local day), then kept on their
own page marked closed; each page carries the JobPosting data Google's job-posting
guidelines require."""

import datetime
import json
import re

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from lab.models import LabSettings
from tests import factories
from tests.sitemaps import whole_sitemap
from website.models import MenuItem, Opening

pytestmark = pytest.mark.django_db

# Google's required JobPosting properties (developers.google.com/search/docs/appearance/
# structured-data/job-posting), validThrough required where the posting has an end.
REQUIRED = {"title", "description", "datePosted", "hiringOrganization", "jobLocation"}


@pytest.fixture
def on_day(monkeypatch):
    """Set the lab's local day."""

    def set_day(day):
        monkeypatch.setattr("django.utils.timezone.localdate", lambda *args: day)

    return set_day


@pytest.fixture
def postdoc():
    return factories.OpeningFactory(
        slug="postdoc-cxl",
        kind="postdoc",
        title="Postdoc in CXL memory",
        title_zh_hans="CXL 内存方向博士后",
        description="Work on **CXL** memory pools.<script>alert(1)</script>",
        how_to_apply="Write to [the lab](mailto:lab@example.org).",
        posted=datetime.date(2026, 3, 1),
        deadline=datetime.date(2026, 4, 30),
        city="Hangzhou",
        country="CN",
    )


def _job_posting(html):
    return json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', html)[1])


def test_an_opening_is_listed_up_to_its_deadline_and_not_the_day_after(client, postdoc, on_day):
    on_day(datetime.date(2026, 4, 30))
    assert (
        '<a href="/openings/postdoc-cxl/">Postdoc in CXL memory</a>'
        in client.get("/openings/").content.decode()
    )

    on_day(datetime.date(2026, 5, 1))
    listing = client.get("/openings/").content.decode()

    assert "Postdoc in CXL memory" not in listing
    assert "No openings at the moment." in listing


def test_a_closed_opening_keeps_its_page_saying_it_closed_without_the_how_to_apply(
    client, postdoc, on_day
):
    on_day(datetime.date(2026, 5, 1))

    html = client.get("/openings/postdoc-cxl/").content.decode()

    assert "Applications closed on 30 Apr 2026." in html
    assert "How to apply" not in html.split("</script>")[-1]


def test_a_draft_opening_is_found_nowhere(client, on_day):
    on_day(datetime.date(2026, 3, 5))
    factories.OpeningFactory(slug="secret", title="Secret opening", is_published=False)

    assert client.get("/openings/secret/").status_code == 404
    assert "Secret opening" not in client.get("/openings/").content.decode()
    assert "/openings/" not in whole_sitemap(client)


def test_an_opening_shows_in_both_languages_sanitised(client, postdoc, on_day):
    on_day(datetime.date(2026, 3, 5))

    english = client.get("/openings/postdoc-cxl/").content.decode()
    chinese = client.get("/zh-hans/openings/postdoc-cxl/").content.decode()

    assert "<h1>Postdoc in CXL memory</h1>" in english
    assert "<strong>CXL</strong>" in english
    assert "<script>alert" not in english
    assert '<a href="mailto:lab@example.org" rel="nofollow noopener">the lab</a>' in english
    assert "<h1>CXL 内存方向博士后</h1>" in chinese
    assert '<div class="prose" lang="en">' in chinese  # the description, in English only


def test_the_job_posting_data_holds_what_google_requires(client, postdoc, on_day):
    on_day(datetime.date(2026, 3, 5))
    lab = LabSettings.load()
    lab.name, lab.address = "Systems Lab", "Room 101, FIT Building\nTsinghua University, Beijing"
    lab.save()

    data = _job_posting(client.get("/openings/postdoc-cxl/").content.decode())

    assert data["@type"] == "JobPosting"
    assert data.keys() >= REQUIRED
    assert data["title"] == "Postdoc in CXL memory"
    assert "<strong>CXL</strong>" in data["description"]
    assert "<script" not in data["description"]
    assert data["datePosted"] == "2026-03-01"
    assert data["validThrough"].startswith("2026-04-30T23:59:59")
    assert data["hiringOrganization"] == {
        "@type": "Organization",
        "name": "Systems Lab",
        "sameAs": "http://testserver/",
    }
    # in Hangzhou, not at the lab's street address in Beijing
    assert data["jobLocation"]["address"] == {
        "@type": "PostalAddress",
        "addressLocality": "Hangzhou",
        "addressCountry": "CN",
    }
    assert data["employmentType"] == "FULL_TIME"
    assert "jobLocationType" not in data


def test_remote_work_and_no_deadline_are_said_as_google_reads_them(client, on_day):
    on_day(datetime.date(2026, 3, 5))
    factories.OpeningFactory(slug="intern", kind="intern", remote=True, country="CN")

    data = _job_posting(client.get("/openings/intern/").content.decode())

    assert data["jobLocationType"] == "TELECOMMUTE"
    assert data["applicantLocationRequirements"] == {"@type": "Country", "name": "CN"}
    assert data["employmentType"] == "INTERN"
    assert "validThrough" not in data  # open until filled


def test_an_opening_needs_a_description_a_country_code_and_a_deadline_after_posting():
    opening = Opening(
        title_en="PhD",
        posted=datetime.date(2026, 3, 1),
        deadline=datetime.date(2026, 2, 1),
        city="Beijing",
        country="China",
    )

    with pytest.raises(ValidationError) as refused:
        opening.full_clean()

    assert set(refused.value.message_dict) == {"description_en", "country", "deadline"}


def test_openings_join_the_menu_when_the_lab_admin_places_them(client, postdoc):
    assert 'href="/openings/"' not in client.get("/news/").content.decode()

    MenuItem.objects.create(section="openings", position=15)

    assert '<a href="/openings/">Openings</a>' in client.get("/").content.decode()


def test_the_sitemap_lists_open_openings_only(client, postdoc, on_day):
    on_day(datetime.date(2026, 3, 5))
    factories.OpeningFactory(slug="old-call", deadline=datetime.date(2026, 3, 4))

    sitemap = whole_sitemap(client)

    assert "<loc>http://testserver/openings/postdoc-cxl/</loc>" in sitemap
    assert "old-call" not in sitemap


def test_the_openings_pages_query_counts_do_not_grow_with_the_openings(
    client, django_assert_max_num_queries, site_rows
):
    for number in range(10):
        factories.OpeningFactory(slug=f"call-{number}")

    # content version, lab settings, the menu, the openings
    with django_assert_max_num_queries(4):
        assert client.get("/openings/").status_code == 200
    # content version, lab settings, the menu, the opening
    with django_assert_max_num_queries(4):
        assert client.get("/openings/call-3/").status_code == 200


def _lab_in_beijing():
    lab = LabSettings.load()
    lab.address = "Room 101, FIT Building\nTsinghua University, Beijing"
    lab.address_zh_hans = "北京市清华大学\nFIT 楼 101 室"
    lab.save()


def test_an_opening_at_the_labs_city_gives_the_labs_street_and_elsewhere_its_own(client, on_day):
    on_day(datetime.date(2026, 3, 5))
    _lab_in_beijing()
    factories.OpeningFactory(slug="at-the-lab", city="Beijing")
    factories.OpeningFactory(
        slug="in-hangzhou", city="Hangzhou", street_address="1 Innovation Road, Yuhang"
    )
    factories.OpeningFactory(slug="in-shanghai", city="Shanghai")

    def address(slug):
        html = client.get(f"/openings/{slug}/").content.decode()
        return _job_posting(html)["jobLocation"]["address"]

    assert address("at-the-lab")["streetAddress"] == (
        "Room 101, FIT Building, Tsinghua University, Beijing"
    )
    assert address("in-hangzhou")["streetAddress"] == "1 Innovation Road, Yuhang"
    assert address("in-hangzhou")["addressLocality"] == "Hangzhou"
    assert "streetAddress" not in address("in-shanghai")
    assert "1 Innovation Road, Yuhang" in client.get("/openings/in-hangzhou/").content.decode()


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"kind": "phd"}, "FULL_TIME"),
        ({"kind": "intern"}, "INTERN"),
        ({"kind": "staff", "employment_type": "PART_TIME"}, "PART_TIME"),
        ({"kind": "visitor", "employment_type": "TEMPORARY"}, "TEMPORARY"),
    ],
)
def test_the_job_posting_gives_its_employment_type(client, on_day, fields, expected):
    on_day(datetime.date(2026, 3, 5))
    factories.OpeningFactory(slug="place", **fields)

    data = _job_posting(client.get("/openings/place/").content.decode())

    assert data["employmentType"] == expected


def test_an_opening_closed_today_leaves_the_list_today_and_keeps_its_posting_date(
    admin_client, client, postdoc, on_day
):
    on_day(datetime.date(2026, 3, 10))
    response = admin_client.post(
        "/admin/website/opening/",
        {"action": "close_today", "_selected_action": [postdoc.pk]},
        follow=True,
    )
    assert "1 opening(s) closed today." in response.content.decode()

    postdoc.refresh_from_db()
    assert postdoc.posted == datetime.date(2026, 3, 1)  # not back-dated
    assert postdoc.deadline == datetime.date(2026, 4, 30)
    assert postdoc.closed_on == datetime.date(2026, 3, 10)
    assert "Postdoc in CXL memory" not in client.get("/openings/").content.decode()
    assert "Postdoc in CXL memory" not in client.get("/").content.decode()
    html = client.get("/openings/postdoc-cxl/").content.decode()
    assert "Applications closed on 10 Mar 2026." in html
    data = _job_posting(html)
    assert data["datePosted"] == "2026-03-01"
    assert data["validThrough"].startswith("2026-03-10T00:00:00")  # past at once


def test_an_opening_posted_today_can_be_closed_today_and_not_before_it_was_posted(on_day):
    on_day(datetime.date(2026, 3, 1))
    opening = factories.OpeningFactory(posted=datetime.date(2026, 3, 1))

    opening.closed_on = datetime.date(2026, 3, 1)
    opening.full_clean()
    opening.save()
    assert not Opening.objects.open().exists()

    opening.closed_on = datetime.date(2026, 2, 28)
    with pytest.raises(ValidationError) as refused:
        opening.full_clean()
    assert "closed_on" in refused.value.message_dict


def test_an_opening_closed_on_a_later_day_stays_listed_until_then(client, postdoc, on_day):
    postdoc.closed_on = datetime.date(2026, 3, 20)
    postdoc.save()

    on_day(datetime.date(2026, 3, 19))
    assert "Postdoc in CXL memory" in client.get("/openings/").content.decode()
    on_day(datetime.date(2026, 3, 20))
    assert "Postdoc in CXL memory" not in client.get("/openings/").content.decode()


def test_the_city_and_the_labs_address_show_in_chinese_on_chinese_pages_else_english(
    client, postdoc, on_day
):
    on_day(datetime.date(2026, 3, 5))
    _lab_in_beijing()
    factories.OpeningFactory(slug="in-shenzhen", city="Shenzhen")
    postdoc.city_zh_hans = "杭州"
    postdoc.save()

    chinese = client.get("/zh-hans/openings/").content.decode()
    english = client.get("/openings/").content.decode()
    page = client.get("/zh-hans/openings/in-shenzhen/").content.decode()

    assert "<span>杭州</span>" in chinese and "Hangzhou" not in chinese
    assert '<span lang="en">Shenzhen</span>' in chinese  # no Chinese name: the English one
    assert "<span>Hangzhou</span>" in english and "杭州" not in english
    assert "<address>北京市清华大学<br>FIT 楼 101 室</address>" in chinese
    assert "<address>Room 101, FIT Building<br>Tsinghua University, Beijing</address>" in english
    assert _job_posting(page)["jobLocation"]["address"]["addressLocality"] == "Shenzhen"


def test_the_labs_address_falls_back_to_english_with_its_language_marked(client):
    lab = LabSettings.load()
    lab.address = "Room 101\nBeijing"
    lab.save()

    chinese = client.get("/zh-hans/").content.decode()

    assert '<address lang="en">Room 101<br>Beijing</address>' in chinese


def _migrate(targets):
    MigrationExecutor(connection).migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_the_city_and_the_labs_address_keep_their_text_through_the_migrations_and_back():
    before = [("website", "0006_teaching"), ("lab", "0002_look")]
    after = [
        ("website", "0007_openings_close_early_and_their_own_place"),
        ("lab", "0003_address_in_two_languages"),
    ]
    apps = _migrate(before)
    apps.get_model("website", "Opening").objects.create(
        title_en="Intern", slug="intern", kind="intern", city="Hangzhou", country="CN"
    )
    apps.get_model("lab", "LabSettings").objects.update_or_create(
        pk=1, defaults={"address": "Room 101\nBeijing"}
    )
    try:
        apps = _migrate(after)
        opening = apps.get_model("website", "Opening").objects.get()
        assert (opening.city_en, opening.city_zh_hans) == ("Hangzhou", "")
        assert opening.employment_type == "INTERN"
        assert apps.get_model("lab", "LabSettings").objects.get().address_en == "Room 101\nBeijing"

        apps = _migrate(before)
        assert apps.get_model("website", "Opening").objects.get().city == "Hangzhou"
        assert apps.get_model("lab", "LabSettings").objects.get().address == "Room 101\nBeijing"
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
