"""A site read (`Site`) written into the lab, or previewed: see `labsite.site_import`.

`import_site` writes it in one transaction, a part for each kind of thing the site holds,
in this order: the lab's settings, news and projects (`lab`), the people with their
profiles (`people`), the talks (`talks`), the publications (`publications`), the courses
(`courses`), the pages and the menu (`pages`) and the posts (`posts`); each finds or makes
its rows through one `Rows` (`rows`) and says what it did in the `Report` (`report`).
`open_site` (`opening`) reads the site's folder or ZIP file first."""

from typing import Any

from django.db import transaction

from labsite.site_import.figures import Figures
from labsite.site_import.groups import GroupMapping, mappings
from labsite.site_import.site import Site
from labsite.site_import.writing.courses import Courses
from labsite.site_import.writing.lab import Lab
from labsite.site_import.writing.opening import MAX_ZIP_BYTES, open_site
from labsite.site_import.writing.pages import Pages
from labsite.site_import.writing.people import People
from labsite.site_import.writing.posts import Posts
from labsite.site_import.writing.publications import Publications
from labsite.site_import.writing.report import Report
from labsite.site_import.writing.rows import Rows
from labsite.site_import.writing.talks import Talks
from people.models import Person

__all__ = ["MAX_ZIP_BYTES", "Report", "import_site", "open_site"]


class _Preview(Exception):
    """Rolls back a preview's transaction."""


def import_site(
    site: Site,
    *,
    apply: bool,
    user: Any = None,
    groups: dict[str, GroupMapping] | None = None,
) -> Report:
    """Write `site` into the lab (`apply`), or say what writing it would do. What cannot be
    read or kept is skipped and named; everything else is written. `groups` are the admin's
    corrections of how the site's groups map to roles."""
    report = Report(site, skipped=list(site.skipped))
    report.groups = mappings(sorted({g for p in site.people for g in p.groups}), groups)
    try:
        with transaction.atomic():
            _write(site, report, photos=apply, user=user)
            if not apply:
                raise _Preview
    except _Preview:
        pass
    report.written = apply
    report.notes = (
        list(site.no_home)
        + _unhomed(site)
        + report.notes
        + site.ledger.not_read_lines()
        + site.ledger.known_lines()
    )
    return report


def _write(site: Site, report: Report, *, photos: bool, user: Any) -> None:
    """Every part of the site written, the people first: the other parts name them. The
    projects are the site owner's; so are the news and the posts of a one-person site."""
    people: dict[str, Person] = {}  # a site person's key → the lab's person
    shared = (site, report, Figures(site, report, apply=photos), Rows(report, user), people)
    lab = Lab(*shared)
    lab.settings()
    People(*shared).write()
    owner = people.get(site.owner.key) if site.owner else None
    lone = owner if len(site.people) == 1 else None  # a one-person site's news
    lab.news(lone)
    lab.projects(owner)
    Talks(*shared).write()
    Publications(*shared).write()
    Courses(*shared).write(owner)
    Pages(*shared).write()
    Posts(*shared).write(lone)


def _unhomed(site: Site) -> list[str]:
    """The lab's own accounts, named."""
    return [
        f"{account}: an account of the lab, not a person (its text is the lab's About)"
        for account in site.organisations
    ]
