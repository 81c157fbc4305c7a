"""Requests per second on a CV PDF address with 20 distinct junk values of the parameters it
reads (`?since=junk1` … `?since=junk20`, each asked once), against the cached profile, under
gunicorn (one sync worker, DEBUG off) on the demo lab, with no task worker running. Run it
on two commits to compare; one run, one machine.

    .venv/bin/python bench/pdf_junk.py

One run on the shared two-core machine (demo lab, teng-ma has 53 papers):

    commit    cached profile    CV PDF, 20 junk values    ratio
    0f1f408   2,095 req/s       1.2 req/s (20 × 200, each laid out)   1,746
    c4b4afe   2,097 req/s       1,430 req/s (20 × 301 to cv.pdf)        1.5
"""

import os
import subprocess
import sys
import time

from _setup import ROOT, django_on_scratch_database
from serve import PYTHON, get, start

JUNK = 20


def rate(port, paths):
    """(requests per second over `paths`, each asked once in turn, {status: count})."""
    statuses: dict[int, int] = {}
    began = time.perf_counter()
    for path in paths:
        status, _body = get(port, path)
        statuses[status] = statuses.get(status, 0) + 1
    return len(paths) / (time.perf_counter() - began), statuses


def main():
    scratch = django_on_scratch_database(debug=False)
    from django.core.management import call_command

    call_command("load_demo", verbosity=0)
    env = {
        **os.environ,
        "STATIC_ROOT": str(scratch / "static"),
        "SECURE_SSL_REDIRECT": "off",
        "ALLOWED_HOSTS": "127.0.0.1",
    }
    subprocess.run(
        [PYTHON, "manage.py", "collectstatic", "--no-input", "-v0"], cwd=ROOT, env=env, check=True
    )
    site, port = start("labsite.wsgi", env, ROOT)
    try:
        get(port, "/people/teng-ma/")
        cached, statuses = rate(port, ["/people/teng-ma/"] * 200)
        print(f"{'cached profile, 200 requests':44} {cached:9,.1f} req/s  {statuses}")
        junk = [f"/people/teng-ma/cv.pdf?since=junk{n}" for n in range(JUNK)]
        pdf, statuses = rate(port, junk)
        print(f"{f'CV PDF, {JUNK} distinct junk values':44} {pdf:9,.1f} req/s  {statuses}")
        print(f"{'ratio (cached / junk PDF)':44} {cached / pdf:9,.1f}")
    finally:
        site.terminate()


if __name__ == "__main__":
    sys.exit(main())
