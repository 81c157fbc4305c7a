"""The sitemap at 10,000 papers, in this process (the page cache off): the whole of it as a
crawler reads it (the index, then every page of every sitemap it names), the hand-written
one it replaced (labsite/sitemaps.py at REVISION, run on the same rows), and the team page;
each the best of a few runs, with their ratios to the team page's (the budget's measure).

    .venv/bin/python bench/sitemap.py [REVISION]   (default: d215e9b, before the framework)
"""

import os
import re
import subprocess
import sys
import types

from _setup import ROOT, best_of, django_on_scratch_database

RUNS = 5


def handwritten(revision):
    """The hand-written sitemap view of `revision`, loaded from git."""
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{revision}:labsite/sitemaps.py"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    module = types.ModuleType("handwritten_sitemaps")
    exec(compile(source, "handwritten_sitemaps.py", "exec"), module.__dict__)
    return module.sitemap


def main(revision="d215e9b"):
    os.environ["CACHE_URL"] = "dummycache://"
    django_on_scratch_database()  # as bench/profile_render.py: DEBUG on, no static manifest
    from django.core.management import call_command
    from django.db import transaction
    from django.test import Client, RequestFactory
    from profile_render import make_member

    from publications.models import Venue

    call_command("load_demo", verbosity=0)
    with transaction.atomic():
        make_member("ten-thousand", 10_000 - 340, Venue.objects.first())
    from labsite import sitemaps

    client, requests = Client(), RequestFactory()
    old_view = handwritten(revision)

    def team():
        assert client.get("/people/", secure=True).status_code == 200

    # both sitemaps called as views (no middleware): the framework's index, then each page
    # of each sitemap it names
    def whole():
        index = sitemaps.index(requests.get("/sitemap.xml")).render().content.decode()
        addresses = 0
        for section, page in re.findall(r"/sitemap-([-\w]+)\.xml(?:\?p=(\d+))?<", index):
            request = requests.get(f"/sitemap-{section}.xml", {"p": page} if page else {})
            response = sitemaps.sitemap(request, section).render()
            addresses += response.content.count(b"<url>")
        return addresses

    def old():
        return old_view(requests.get("/sitemap.xml")).content.count(b"<url>")

    assert whole() == old(), (whole(), old())  # the same pages listed
    team_s = best_of(RUNS * 3, team)
    new_s = best_of(RUNS, whole)
    old_s = best_of(RUNS, old)
    print(f"{whole():,} addresses (10,000 papers, each in two languages)")
    print(f"{'':34} {'s':>7} {'× team':>8}")
    print(f"{'team page':34} {team_s:7.4f} {1:8.1f}")
    print(f"{'hand-written sitemap (' + revision + ')':34} {old_s:7.3f} {old_s / team_s:8.1f}")
    print(f"{'framework: index + every page':34} {new_s:7.3f} {new_s / team_s:8.1f}")
    print(f"framework / hand-written: {new_s / old_s:.2f}")


if __name__ == "__main__":
    main(*sys.argv[1:])
