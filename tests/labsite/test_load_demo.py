import io

import pytest
from django.core.management import call_command

from people.models import Person

pytestmark = pytest.mark.django_db


def _snapshot():
    out = io.StringIO()
    call_command("dumpdata", "labsite", "people", stdout=out)
    return out.getvalue()


def test_load_demo_twice_changes_nothing():
    call_command("load_demo", stdout=io.StringIO())
    first = _snapshot()

    call_command("load_demo", stdout=io.StringIO())

    assert _snapshot() == first


def test_load_demo_if_empty_leaves_an_existing_lab_alone():
    Person.objects.create(name="Someone Else", slug="someone")
    out = io.StringIO()

    call_command("load_demo", "--if-empty", stdout=out)

    assert list(Person.objects.values_list("slug", flat=True)) == ["someone"]
    assert "not loaded" in out.getvalue()


def test_demo_profile_of_teng_ma_shows_the_seed_sections(client):
    call_command("load_demo", stdout=io.StringIO())

    html = client.get("/people/teng-ma/").content.decode()

    assert '<span lang="zh">马腾</span>' in html
    assert "Staff Engineer &amp; Research Leader</span>, <span>Alibaba Apsara Lab" in html
    assert "I was born in Anhui, China." in html
    for heading in ("Open Source &amp; Projects", "Experience", "Education"):
        assert f'-heading">{heading}</h2>' in html
    assert "Dec 2023 – Present" in html
    assert "Advised by Prof. Yongwei Wu (IEEE Fellow) &amp; Prof. Kang Chen" in html
    assert "5K+ GitHub stars" in html
    assert "680+" in html and "Google Scholar, read" in html


def test_demo_profile_of_feng_ren_shows_news_and_service(client):
    call_command("load_demo", stdout=io.StringIO())

    html = client.get("/people/feng-ren/").content.decode()

    assert "tl;dr: I wrote Mooncake Transfer Engine." in html
    assert '<time datetime="2025-02">Feb 2025</time>' in html
    assert "Mooncake Paper has been awarded as FAST 25 Best Paper." in html
    assert "Member of Storage Benchmarking Workgroup" in html
    assert "Sep 2016" not in html  # Teng Ma's PhD start, not his
