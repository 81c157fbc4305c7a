"""A large lab's site: its new people, and their links, education and experience, are written
together, so the queries its import asks do not grow with the lab (issue 52: a 200-person
lab within 10x of reading its files); and what writing them together gives is what writing
them one by one gave: the team's order and the ids in the site's order, a photo encoded,
an ORCID that two folders share kept by the first, the second named."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from PIL import Image

from labsite.site_import import import_site, open_site
from people.models import Education, Experience, Link, Person

pytestmark = pytest.mark.django_db


def _write(site, name, text):
    (site / name).parent.mkdir(parents=True, exist_ok=True)
    (site / name).write_text(text, encoding="utf-8")


def _lab(site, people, extra=lambda n: ""):
    """A Hugo lab of `people` PhD students, each with a link, a degree and a job."""
    _write(site, "config.toml", 'title = "A large lab"\n')
    for n in range(people):
        _write(
            site,
            f"content/authors/person-{n}/_index.md",
            f"---\ntitle: Person Number{n}\nrole: Researcher<br>Member\n"
            f"user_groups: [PhD Students]\nemail: p{n}@example.org\n"
            f"social:\n  - icon: github\n    link: https://github.com/p{n}\n"
            f"education:\n  courses:\n    - course: PhD\n      institution: University {n}\n"
            f"experience:\n  - role: Intern\n    org: Company {n}\n{extra(n)}---\n"
            f"Person {n} works on things.\n",
        )
    return site


def _preview(site):
    with open_site(site) as read:
        return import_site(read, apply=False)


def _queries(site):
    with CaptureQueriesContext(connection) as queries:
        _preview(site)
    return len(queries)


def test_a_labs_import_asks_as_many_queries_for_twenty_people_as_for_three(tmp_path):
    small = _lab(tmp_path / "small", 3)
    large = _lab(tmp_path / "large", 20)

    assert _queries(large) == _queries(small)  # one by one, 17 more people asked 374 more

    counts = _preview(large).counts
    assert {
        kind: counts[kind]["new"] for kind in ("person", "link", "education", "experience")
    } == {
        "person": 20,
        "link": 20,
        "education": 20,
        "experience": 20,
    }


def test_people_written_together_land_as_one_by_one_in_the_sites_order(tmp_path):
    Person.objects.create(name="Old Member", slug="old", role="phd", display_order=4)
    site = _lab(tmp_path, 4)
    Image.new("RGB", (300, 300), "navy").save(site / "content/authors/person-1/avatar.jpg")

    with open_site(site) as read:
        import_site(read, apply=True)

    new = Person.objects.exclude(slug="old").order_by("pk")
    assert [p.name for p in new] == [f"Person Number{n}" for n in range(4)]  # the site's order
    assert [p.display_order for p in new] == [5, 6, 7, 8]  # after the lab's own, in that order
    assert new[1].photo and new[1].photo_thumb  # the one with a photo, saved on its own
    assert sorted(Link.objects.values_list("person__name", "url")) == [
        (f"Person Number{n}", f"https://github.com/p{n}") for n in range(4)
    ]
    assert Education.objects.get(person=new[2]).institution == "University 2"
    assert Experience.objects.get(person=new[3]).organization == "Company 3"
    for person in new:  # each written with its history, as a save writes it
        assert person.history.get().history_type == "+"
    for link in Link.objects.all():
        assert link.history.get().history_type == "+"

    with open_site(site) as read:
        assert import_site(read, apply=True).changes == 0


def test_an_orcid_two_folders_share_stays_with_the_first_and_the_second_is_named(tmp_path):
    orcid = "0000-0002-1825-0097"
    profile = f"profiles:\n  - icon: orcid\n    url: https://orcid.org/{orcid}\n"
    site = _lab(tmp_path, 3, extra=lambda n: profile if n in (0, 2) else "")

    with open_site(site) as read:
        report = import_site(read, apply=True)

    # the model's check sees the first, still waiting to be written, as one by one it did
    assert Person.objects.get(orcid=orcid).name == "Person Number0"
    assert [line for line in report.skipped if "Person Number2" in line] == [
        "content/authors/person-2/_index.md: Person Number2 cannot be kept: Constraint "
        "“person_orcid_unique_when_set” is violated."
    ]
    assert sorted(Person.objects.values_list("name", flat=True)) == [
        "Person Number0",
        "Person Number1",
    ]
