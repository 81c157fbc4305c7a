import datetime

import pytest

from people.models import LabSettings
from tests import factories

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
    client.get("/people/")  # creates the lab settings row

    with django_assert_max_num_queries(3):  # lab settings, then the page's own two
        client.get("/people/")
