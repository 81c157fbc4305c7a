"""Render a member's profile with 10 and with 300 publications, and the team page, in this
process (the page cache off); print the times, their ratios to the team page's (the budget's
measure), the 300-paper member's CV (page and PDF) against their profile, and the query
counts of the profile, lab list and paper pages.

    .venv/bin/python bench/profile_render.py
"""

from _setup import best_of, django_on_scratch_database

RUNS = 15


def make_member(slug, count, venue):
    from people.models import Person
    from publications.models import Authorship, Publication

    person = Person.objects.create(name=f"Bench {slug}", slug=slug)
    for n in range(count):
        paper = Publication.objects.create(
            title=f"Paper {n} of {slug}",
            venue=venue,
            date=str(1995 + n % 30),
            citation_count=n % 50,
            citations_read_on="2026-12-01",
        )
        names = [
            ("A", f"First{n}"),
            ("T", "Bench"),
            *((chr(66 + k), f"Other{k}") for k in range(8)),
        ]
        Authorship.objects.bulk_create(
            Authorship(
                publication=paper,
                position=position,
                given_name=given,
                family_name=family,
                person=person if position == 2 else None,
                is_equal_contribution=position <= 2 and n % 3 == 0,
                is_corresponding=position == 2 and n % 4 == 0,
            )
            for position, (given, family) in enumerate(names, start=1)
        )
    return person


def main():
    django_on_scratch_database()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from publications.models import Publication, Venue

    venue = Venue.objects.create(short_name="SOSP")
    make_member("ten", 10, venue)
    make_member("three-hundred", 300, venue)
    client = Client()

    def get(url):
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)

    for url in ("/people/", "/people/ten/", "/people/three-hundred/"):
        get(url)  # warm caches (lab settings, templates)
    team = best_of(RUNS, lambda: get("/people/"))
    small = best_of(RUNS, lambda: get("/people/ten/"))
    large = best_of(RUNS, lambda: get("/people/three-hundred/"))
    print(f"team page:                  {team * 1000:7.1f} ms (best of {RUNS})")
    print(f"profile, 10 publications:   {small * 1000:7.1f} ms, {small / team:5.1f}× the team page")
    print(f"profile, 300 publications:  {large * 1000:7.1f} ms, {large / team:5.1f}× the team page")
    get("/people/three-hundred/cv.pdf")  # fonts loaded once per process
    cv_page = best_of(3, lambda: get("/people/three-hundred/cv/"))
    cv_pdf = best_of(3, lambda: get("/people/three-hundred/cv.pdf"))
    print(
        f"CV of the 300-paper member:  page {cv_page * 1000:7.1f} ms, "
        f"{cv_page / large:4.1f}× their profile; PDF {cv_pdf * 1000:7.1f} ms, "
        f"{cv_pdf / large:4.1f}× their profile"
    )

    paper = Publication.objects.filter(authorships__person__slug="three-hundred").first()
    for label, url in [
        ("profile (10 publications)", "/people/ten/"),
        ("profile (300 publications)", "/people/three-hundred/"),
        ("/publications/ (310 in the lab, 50 a page)", "/publications/"),
        ("/publications/?member=…&role=first", "/publications/?member=three-hundred&role=first"),
        ("paper page", paper.get_absolute_url()),
        ("team page", "/people/"),
        ("home page", "/"),
        ("/talks/", "/talks/"),
        ("/awards/", "/awards/"),
    ]:
        with CaptureQueriesContext(connection) as queries:
            get(url)
        print(f"queries, {label:45} {len(queries)}")


if __name__ == "__main__":
    main()
