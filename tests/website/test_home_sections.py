"""The home page the lab composes: the sections a lab admin picks, orders, hides and names
(website.HomeSection), else the default composition (about, team, publications, news), in
both languages."""

import re

import pytest
from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from django.db import IntegrityError, transaction

from lab.models import LabSettings
from tests import factories
from tests.admin_forms import form_data
from website.models import HomeSection

pytestmark = pytest.mark.django_db

Kind = HomeSection.Kind


@pytest.fixture
def lab(person):
    """A lab with something for every section: about, address and e-mail, a member
    (`person`), a paper, news, a research theme, an opening and a post."""
    lab = LabSettings.load()
    lab.name = "Systems Lab"
    lab.about = "We study **memory**."
    lab.about_zh_hans = "我们研究**内存**。"
    lab.address = "Room 1, Building 2\nBeijing"
    lab.contact_email = "lab@example.org"
    lab.save()
    factories.authored(person, ["T Ma", "F Ren"], title="Mooncake store")
    factories.NewsItemFactory(person=person, text="Mooncake won a prize.")
    factories.ThemeFactory(title="KVCache-centric serving", slug="kvcache")
    factories.OpeningFactory(title="PhD positions", slug="phd")
    factories.PostAuthorFactory(person=person, post__title="Mooncake is open source")
    return lab


def _headings(html):
    """The ids of the home's section headings, in the page's order."""
    return re.findall(r'<h2 id="([a-z]+)-heading"', html)


def _section(kind, **fields):
    section = HomeSection(kind=kind, **fields)
    section.full_clean()
    section.save()
    return section


def test_with_no_sections_the_home_is_todays_about_team_publications_news(client, lab):
    html = client.get("/").content.decode()

    assert _headings(html) == ["about", "team", "publications", "news"]
    assert "<h1>Systems Lab</h1>" in html
    assert "<strong>memory</strong>" in html
    assert '<h2 id="publications-heading">Recent publications</h2>' in html
    assert "Mooncake won a prize." in html
    # the sections a lab adds itself stay out until it does
    for absent in ("KVCache-centric serving", "PhD positions", "Mooncake is open source"):
        assert absent not in html


def test_the_sections_follow_the_lab_admins_positions(client, lab):
    _section(Kind.NEWS, position=5)
    _section(Kind.TEAM, position=50)
    _section(Kind.OPENINGS, position=15)
    _section(Kind.CONTACT, position=60, map_url="https://maps.example.org/lab")

    html = client.get("/").content.decode()

    assert _headings(html) == ["news", "about", "openings", "publications", "team", "contact"]
    assert '<h2 id="openings-heading">Join us</h2>' in html
    assert '<a href="/openings/phd/">PhD positions</a>' in html
    assert "Room 1, Building 2<br>Beijing" in html
    assert '<a href="mailto:lab@example.org">lab@example.org</a>' in html
    assert '<a href="https://maps.example.org/lab">The lab on a map</a>' in html


def test_a_hidden_section_is_left_out(client, lab):
    _section(Kind.ABOUT, is_shown=False)
    _section(Kind.THEMES, is_shown=False)

    html = client.get("/").content.decode()

    assert _headings(html) == ["team", "publications", "news"]
    assert "We study" not in html and "KVCache-centric serving" not in html


def test_a_section_with_nothing_to_show_has_no_heading(client, person):
    _section(Kind.POSTS)
    _section(Kind.OPENINGS)
    factories.OpeningFactory(title="A draft opening", is_published=False)

    html = client.get("/").content.decode()

    assert _headings(html) == ["team"]


def test_a_section_shows_the_number_of_items_the_lab_admin_asks_for(client, lab):
    for number in range(4):
        factories.NewsItemFactory(person=None, text=f"Lab news {number}.")
    _section(Kind.NEWS, count=2)
    _section(Kind.POSTS, heading="From the blog", heading_zh_hans="博客")

    english = client.get("/").content.decode()
    chinese = client.get("/zh-hans/").content.decode()

    assert english.count("Lab news") == 2
    assert '<h2 id="posts-heading">From the blog</h2>' in english
    assert '<a href="/posts/' in english and "Mooncake is open source" in english
    assert '<h2 id="posts-heading">博客</h2>' in chinese


def test_the_chinese_home_has_the_chinese_headings_and_texts(client, lab):
    _section(Kind.THEMES, position=12)
    _section(
        Kind.BANNER, text="We build **fast** systems.", text_zh_hans="我们构建**快速**的系统。"
    )

    html = client.get("/zh-hans/").content.decode()

    assert _headings(html) == ["about", "themes", "team", "publications", "news"]
    assert '<h2 id="about-heading">简介</h2>' in html
    assert '<h2 id="themes-heading">研究</h2>' in html
    assert "我们研究<strong>内存</strong>。" in html
    assert "我们构建<strong>快速</strong>的系统。" in html
    assert 'href="/zh-hans/themes/kvcache/"' in html


def test_a_banner_shows_its_text_image_and_link_above_the_sections(client, lab):
    banner = HomeSection(
        kind=Kind.BANNER,
        heading="Welcome",
        text="We build **fast** systems.<script>alert(1)</script>",
        image=factories.photo_upload((2400, 1200)),
        image_alt="The lab's servers",
        link_url="https://example.org/join",
        link_label="Join us",
    )
    banner.full_clean()
    banner.save()

    html = client.get("/").content.decode()

    assert _headings(html) == ["banner", "about", "team", "publications", "news"]
    assert banner.image.name.startswith("home/") and banner.image.name.endswith(".png")
    assert (banner.image_width, banner.image_height) == (1600, 800)  # fitted, never the upload
    assert (
        f'<img class="banner__image" src="{banner.image.url}" alt="The lab&#x27;s servers" '
        'width="1600" height="800">'
    ) in html
    assert "We build <strong>fast</strong> systems." in html and "<script>alert" not in html
    assert '<a class="banner__link" href="https://example.org/join">Join us</a>' in html


def test_replacing_the_banners_image_deletes_the_old_file(lab, django_capture_on_commit_callbacks):
    banner = _section(
        Kind.BANNER, image=factories.photo_upload(), image_alt="The lab", text="Hello."
    )
    old = banner.image.name

    with django_capture_on_commit_callbacks(execute=True):
        banner.image = factories.photo_upload(color="red")
        banner.save()

    assert not default_storage.exists(old) and default_storage.exists(banner.image.name)


@pytest.mark.parametrize(
    "link",
    [
        "javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "ftp://x.org/",
        "//elsewhere.example/join-us/",
        "/\\elsewhere.example/",
        "/join us/",
        "join-us/",
    ],
)
def test_a_banner_link_must_be_a_web_address_or_a_site_path(admin_client, link):
    url = "/admin/website/homesection/add/"
    data = form_data(admin_client.get(url), kind="banner", text="Hello.", link_url=link)
    data["link_label_en"] = "Read more"

    response = admin_client.post(url, data)

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert errors["link_url"] == [
        "Enter a web address starting with http:// or https://, or a page of this site "
        "starting with / (such as /join-us/)."
    ]
    assert not HomeSection.objects.exists()


def test_a_banner_linked_to_a_site_path_leads_to_the_page_in_the_visitors_language(
    admin_client, client, lab
):
    url = "/admin/website/homesection/add/"
    data = form_data(admin_client.get(url), kind="banner", text="Hello.", link_url="/join-us/")
    data["link_label_en"], data["link_label_zh_hans"] = "Join us", "加入我们"

    assert admin_client.post(url, data).status_code == 302

    english, chinese = client.get("/").content.decode(), client.get("/zh-hans/").content.decode()
    assert '<a class="banner__link" href="/join-us/">Join us</a>' in english
    assert '<a class="banner__link" href="/zh-hans/join-us/">加入我们</a>' in chinese


def test_the_contact_map_link_must_be_a_web_address():
    section = HomeSection(kind=Kind.CONTACT, map_url="javascript:alert(1)")

    with pytest.raises(ValidationError) as error:
        section.full_clean()

    assert error.value.message_dict["map_url"] == [
        "Enter a web address starting with http:// or https://."
    ]


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"kind": "banner"}, "text_en", "A banner needs a text or an image."),
        (
            {"kind": "banner", "text": "Hi.", "link_url": "https://example.org/"},
            "link_label_en",
            "Give the link's words, in English or Chinese.",
        ),
        (
            {"kind": "banner", "image": "home/x.png", "image_width": 8, "image_height": 8},
            "image_alt_en",
            "Say what the image shows, in English or Chinese, for readers who cannot see it.",
        ),
        (
            {"kind": "about", "text": "Hi."},
            "text_en",
            "Only a banner has an image, a text and a link.",
        ),
        (
            {"kind": "about", "map_url": "https://maps.example.org/"},
            "map_url",
            "Only the contact section has a map link.",
        ),
        (
            {"kind": "team", "count": 3},
            "count",
            "Only news, publications, posts, research themes and openings are lists of a "
            "chosen length.",
        ),
        ({"kind": "news", "count": 21}, "count", "Ensure this value is less than or equal to 20."),
    ],
)
def test_a_section_refuses_what_does_not_fit_its_kind(fields, field, message):
    with pytest.raises(ValidationError) as error:
        HomeSection(**fields).full_clean()

    assert message in error.value.message_dict[field]


def test_each_kind_is_listed_once(admin_client):
    _section(Kind.NEWS)
    url = "/admin/website/homesection/add/"

    response = admin_client.post(url, form_data(admin_client.get(url), kind="news"))

    assert "Home page section with this Kind already exists." in response.content.decode()
    with pytest.raises(IntegrityError), transaction.atomic():
        HomeSection.objects.create(kind=Kind.NEWS)


def test_a_new_section_takes_its_own_place_unless_given_one():
    assert _section(Kind.BANNER, text="Hi.").position == 5
    assert _section(Kind.CONTACT).position == 80
    assert _section(Kind.NEWS, position=1).position == 1


def test_a_lab_admin_reorders_the_home_in_the_changelist(client, lab, cast):
    news, team = _section(Kind.NEWS), _section(Kind.TEAM)
    client.force_login(cast["admin"])
    data = {
        "form-TOTAL_FORMS": "2",
        "form-INITIAL_FORMS": "2",
        "form-0-id": str(news.pk),
        "form-0-position": "15",
        "form-0-is_shown": "on",
        "form-1-id": str(team.pk),
        "form-1-position": "45",
        "form-1-is_shown": "on",
        "_save": "Save",
    }

    response = client.post("/admin/website/homesection/", data)

    assert response.status_code == 302
    client.logout()
    assert _headings(client.get("/").content.decode()) == ["about", "news", "publications", "team"]


def test_an_edit_reaches_the_cached_home(client, lab):
    first = client.get("/")
    assert client.get("/")["X-Page-Cache"] == "hit"

    _section(Kind.NEWS, position=1)

    second = client.get("/")
    assert second["X-Page-Cache"] == "miss"
    assert _headings(first.content.decode())[0] == "about"
    assert _headings(second.content.decode())[0] == "news"


def test_the_composed_home_is_built_in_a_bounded_number_of_queries(
    client, lab, site_rows, django_assert_max_num_queries
):
    for kind in Kind:
        fields = {"text": "Hello."} if kind == Kind.BANNER else {}
        _section(kind, **fields)
    for number in range(5):
        member = factories.PersonFactory(name=f"Member {number}", slug=f"member-{number}")
        factories.authored(member, ["M X", "T Ma"], title=f"Paper {number}")
        factories.NewsItemFactory(person=member, text=f"News {number}.")
        factories.ThemeFactory(title=f"Theme {number}")
        factories.OpeningFactory(title=f"Opening {number}")
        factories.PostAuthorFactory(person=member, post__title=f"Post {number}")

    # the content version, the settings, the sections, the team, papers (5, their tags one),
    # news, themes, openings, posts (3, their tags one) and the menu: however many of each
    with django_assert_max_num_queries(16):
        html = client.get("/").content.decode()

    assert _headings(html) == [
        "about",
        "team",
        "publications",
        "news",
        "themes",
        "openings",
        "posts",
        "contact",
    ]
    assert html.count('<li class="theme-entry">') == 6  # of 6 themes
    assert html.count('<h3 class="card__title">') == 5  # of 6 openings
    assert html.count('<h3 class="post-list__title">') == 3  # of 6 posts


def test_the_default_home_costs_one_query_more_than_before(
    client, lab, site_rows, django_assert_max_num_queries
):
    # 9 before there were sections to read, 10 before papers had tags
    with django_assert_max_num_queries(11):
        html = client.get("/").content.decode()

    assert _headings(html) == ["about", "team", "publications", "news"]


@pytest.mark.parametrize(
    ("link", "chinese"),
    [
        ("/join-us/", "/zh-hans/join-us/"),
        ("/publications/?kind=journal#2025", "/zh-hans/publications/?kind=journal#2025"),
        ("/zh-hans/people/", "/zh-hans/people/"),
        ("/admin/", "/admin/"),
        ("https://example.org/join", "https://example.org/join"),
        ("javascript:alert(1)", ""),
        ("//elsewhere.example/", ""),
    ],
)
def test_a_link_into_the_site_follows_the_pages_language(link, chinese):
    from core.weblinks import site_or_web_url

    assert site_or_web_url(link, "zh-hans") == chinese


def test_the_team_section_follows_the_labs_role_order_as_the_team_page_does(client, person):
    lab = LabSettings.load()
    lab.team_role_order = "postdoc,phd,pi"
    lab.save()
    person.role = "pi"  # "Teng Ma", first by name
    person.save()
    factories.PersonFactory(name="Zhe Zhou", slug="zhe-zhou", role="phd")
    factories.PersonFactory(name="Yue Yang", slug="yue-yang", role="postdoc")

    home = client.get("/").content.decode()
    team = client.get("/people/").content.decode()

    def order(html):
        return list(dict.fromkeys(re.findall(r"Teng Ma|Zhe Zhou|Yue Yang", html)))

    assert order(team) == ["Yue Yang", "Zhe Zhou", "Teng Ma"]
    assert order(home[home.index('id="team-heading"') :]) == ["Yue Yang", "Zhe Zhou", "Teng Ma"]
