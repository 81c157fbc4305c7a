"""The CV as committees read it: sections in the member's order (default education,
experience, honors, publications, …), the profile's address and a "last updated" date in
its header, and a talk bearing its paper's title printed once."""

import re

import pytest
from django.core.exceptions import ValidationError

from people.models import Person

pytestmark = pytest.mark.django_db


def _headings(html):
    return [h.strip() for h in re.findall(r'<h2 id="cv-[a-z]+">(.*?)</h2>', html)]


def test_the_default_order_puts_honors_before_publications(client, demo):
    headings = _headings(client.get("/people/teng-ma/cv/").content.decode())

    assert headings.index("Education") < headings.index("Experience")
    assert headings.index("Experience") < headings.index("Honors &amp; Awards")
    assert headings.index("Honors &amp; Awards") < headings.index("Publications")
    assert headings.index("Publications") < headings.index("Talks &amp; Presentations")


def test_a_member_sets_the_order_and_an_unknown_section_is_refused(client, demo):
    person = Person.objects.get(slug="teng-ma")
    person.cv_sections = "talks, publications"
    person.full_clean()
    person.save()

    headings = _headings(client.get("/people/teng-ma/cv/").content.decode())
    assert headings[:2] == ["Talks &amp; Presentations", "Publications"]
    person.cv_sections = "talks, hobbies"
    with pytest.raises(ValidationError, match="hobbies"):
        person.full_clean()


def test_the_header_gives_the_profiles_address_and_when_it_was_last_updated(client, demo):
    html = client.get("/people/teng-ma/cv/").content.decode()
    header = re.search(r'<header class="cv-header">(.*?)</header>', html, re.S)[1]

    assert '<a href="http://testserver/people/teng-ma/">testserver/people/teng-ma/</a>' in header
    assert re.search(r'<p class="cv-updated">Last updated \w', header)


def test_a_talk_bearing_its_papers_title_prints_it_once(client, demo):
    html = client.get("/people/teng-ma/cv/").content.decode()

    assert "Presents HydraRPC" not in html and "The paper of this title" in html
    assert html.count("HydraRPC: RPC in the CXL Era") == 2  # the paper, and the talk
