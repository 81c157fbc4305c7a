"""The admin's first page lists what a lab admin builds first: the site (with its images),
then the people and their work, the tags, then harvesting, then accounts and the
machinery."""

import re

import pytest

pytestmark = pytest.mark.django_db


def _sections(html):
    return re.findall(r'<div class="app-([a-z_]+) module', html)


def _models(html, app):
    section = html.split(f'<div class="app-{app} module')[1].split("</table>")[0]
    return re.findall(r'<tr class="model-([a-z]+)', section)


def test_the_site_building_models_come_first_then_people_work_harvest_and_machinery(
    admin_client,
):
    html = admin_client.get("/admin/").content.decode()

    assert _sections(html) == [
        "website",
        "lab",
        "media",
        "people",
        "publications",
        "talks",
        "tags",
        "harvest",
        "auth",
        "axes",
        "django_tasks_database",
    ]
    assert _models(html, "website") == [
        "homesection",
        "page",
        "menuitem",
        "post",
        "opening",
        "theme",
        "course",
    ]
    assert _models(html, "media") == ["mediaitem", "gallery"]


def test_a_lab_admin_sees_the_same_order(cast, signed_in):
    html = signed_in(cast["admin"]).get("/admin/").content.decode()

    sections = _sections(html)
    assert sections.index("website") < sections.index("media") < sections.index("people")
    assert sections.index("people") < sections.index("tags") < sections.index("harvest")
    assert sections.index("harvest") < sections.index("auth")
