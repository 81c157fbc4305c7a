import datetime

import pytest

from lab.models import LabSettings
from tests import factories
from tests.admin_forms import form_data

pytestmark = pytest.mark.django_db


def _headings(html):
    return [line.split(">")[1].split("<")[0] for line in html.splitlines() if "<h2 id=" in line]


def test_team_groups_current_members_by_role_in_the_lab_order(client):
    factories.PersonFactory(name="Pat PhD", role="phd")
    factories.PersonFactory(name="Ada Pi", role="pi")
    factories.PersonFactory(name="Sam Staff", role="staff")
    lab = LabSettings.load()
    lab.team_role_order = "staff,pi"
    lab.save()

    html = client.get("/people/").content.decode()

    assert _headings(html) == ["Research staff", "Principal investigator", "PhD student"]


def test_team_lists_alumni_last_with_where_they_went(client):
    factories.PersonFactory(name="Now Here", role="phd")
    factories.PersonFactory(
        name="Long Gone", role="phd", member_until="2020-06", alumni_destination="Google"
    )

    html = client.get("/people/").content.decode()

    assert _headings(html) == ["PhD student", "Alumni"]
    assert html.index("Now Here") < html.index("Long Gone")
    assert "Now: Google" in html


def test_member_whose_end_date_is_this_month_is_still_current(client):
    this_month = datetime.date.today().strftime("%Y-%m")
    factories.PersonFactory(name="Leaving Soon", role="phd", member_until=this_month)

    assert _headings(client.get("/people/").content.decode()) == ["PhD student"]


def test_unpublished_people_are_not_listed(client):
    factories.PersonFactory(name="Secret Person", is_published=False)

    assert "Secret Person" not in client.get("/people/").content.decode()


def test_team_page_query_count_does_not_grow_with_the_team(client, django_assert_max_num_queries):
    factories.PersonFactory.create_batch(40)
    factories.PersonFactory.create_batch(10, member_until="2019")
    factories.OpeningFactory.create_batch(5)
    client.get("/people/")  # creates the lab settings row

    # content version, lab settings, the page's own two, its openings, the site's menu
    with django_assert_max_num_queries(6):
        client.get("/people/")


def test_a_new_member_entered_in_the_admin_goes_after_those_of_their_role(client, admin_client):
    factories.PersonFactory(name="Zoe Zhang", role="phd", display_order=0)
    factories.PersonFactory(name="Yan Yu", role="phd", display_order=0)
    factories.PersonFactory(name="Pia Pi", role="pi", display_order=5)
    add = "/admin/people/person/add/"
    data = form_data(admin_client.get(add), name="Abe Adams", slug="abe-adams", role="phd")
    assert data.get("display_order", "") == ""

    assert admin_client.post(add, data).status_code == 302

    html = client.get("/people/").content.decode()
    assert html.index("Yan Yu") < html.index("Zoe Zhang") < html.index("Abe Adams")


def test_an_order_set_by_hand_is_kept(client):
    factories.PersonFactory(name="Zoe Zhang", role="phd", display_order=3)
    factories.PersonFactory(name="Abe Adams", role="phd", display_order=0)

    html = client.get("/people/").content.decode()

    assert html.index("Abe Adams") < html.index("Zoe Zhang")


def test_the_team_page_invites_to_the_openings_still_listed(client):
    factories.PersonFactory(name="Ada Pi", role="pi")
    factories.PersonFactory(name="Long Gone", role="phd", member_until="2020-06")
    today = datetime.date.today()
    factories.OpeningFactory(title="PhD in memory systems", deadline=today)
    factories.OpeningFactory(title="Postdoc, closed", deadline=today - datetime.timedelta(days=1))

    html = client.get("/people/").content.decode()

    assert _headings(html) == ["Principal investigator", "Join us", "Alumni"]
    assert "PhD in memory systems" in html and "Postdoc, closed" not in html
    assert 'href="/openings/"' in html


def test_with_no_opening_listed_the_team_page_has_no_join_us(client):
    factories.PersonFactory(name="Ada Pi", role="pi")
    factories.OpeningFactory(title="Filled", is_published=False)

    assert _headings(client.get("/people/").content.decode()) == ["Principal investigator"]
