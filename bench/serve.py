"""Requests per second of the public pages, served by gunicorn (one sync worker, DEBUG off),
against WhiteNoise serving a static copy of each page from the same gunicorn (what a static
site generator would serve): the ratio is how close the live site comes. One run, one
machine; each page and its copy are measured in alternation, best of three, as this
machine is shared and noisy.

    .venv/bin/python bench/serve.py [--seconds=3] [--exports] [--warm-only]

Needs wrk (Debian's package `wrk`). The lab is the demo lab plus a member with 300
generated papers; warm: the page cache holds every page; cold: CACHE_URL=dummycache://,
so every request builds its page. With --exports, also the lab-wide exports at 10,000
papers, cold and warm (a few minutes: the papers are generated first).
"""

import http.client
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _setup import ROOT, django_on_scratch_database

PYTHON = sys.executable
STATIC_APP = """
from whitenoise import WhiteNoise
def nothing(environ, start_response):
    start_response("404 Not Found", [("Content-Type", "text/plain")])
    return [b""]
application = WhiteNoise(nothing, root={root!r}, index_file=True, autorefresh=False)
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(app, env, cwd, workers=1):
    port = free_port()
    process = subprocess.Popen(
        [PYTHON, "-m", "gunicorn", app, "--workers", str(workers), "--bind", f"127.0.0.1:{port}"],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            get(port, "/health/")
            return process, port
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{app} did not start")


def get(port, path):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def best_rps(port, path, seconds, copy_port, copy_path, rounds=3):
    """(page req/s, its static copy's req/s), each the best of `rounds`, alternating."""
    page, copy = 0.0, 0.0
    for _ in range(rounds):
        copy = max(copy, wrk(copy_port, copy_path, seconds))
        page = max(page, wrk(port, path, seconds))
    return page, copy


def row(path, size=None, rps=None, static_rps=None):
    """A line of the table, or its heading."""
    if size is None:
        print(f"{path:42} {'KB':>5} {'req/s':>7} {'static':>7} {'ratio':>6}")
    else:
        ratio = rps / static_rps
        print(f"{path[:42]:42} {size / 1024:5.0f} {rps:7,.0f} {static_rps:7,.0f} {ratio:6.3f}")


def wrk(port, path, seconds):
    """Requests per second over `seconds` (wrk: 1 thread, 4 connections)."""
    output = subprocess.run(
        ["wrk", "-t1", "-c4", f"-d{seconds}s", f"http://127.0.0.1:{port}{path}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    assert not errors, f"{path}: {errors.group(0)}"
    return float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))


def make_lab(papers_for_bench_member=300):
    from django.core.management import call_command
    from django.db import transaction
    from profile_render import make_member

    from publications import exports
    from publications.models import Venue

    call_command("load_demo", verbosity=0)
    with transaction.atomic():
        make_member("three-hundred", papers_for_bench_member, Venue.objects.first())
    exports.store()  # what the task worker does once the papers are in


def main(seconds=3, exports=False, warm_only=False):
    if not shutil.which("wrk"):
        sys.exit("bench/serve.py needs wrk: apt-get install wrk")
    scratch = django_on_scratch_database(debug=False)
    sys.path.insert(0, str(ROOT))
    make_lab()
    from publications.models import Publication
    from website.models import Course, Opening, Theme

    paper = Publication.objects.filter(authorships__person__slug="teng-ma").first()
    # the lab's own pages: one of each kind of the demo's
    theme, opening, course = (model.objects.first() for model in (Theme, Opening, Course))
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
    pages = [
        "/",
        "/people/",
        "/people/teng-ma/",
        "/zh-hans/people/teng-ma/",
        "/people/three-hundred/",
        "/publications/",
        paper.get_absolute_url(),
        "/talks/",
        "/awards/",
        "/news/",
        "/join-us/",
        "/posts/",
        "/posts/mooncake-open-source-2024/",
        "/posts/feed/",
        "/themes/",
        theme.get_absolute_url(),
        "/openings/",
        opening.get_absolute_url(),
        "/teaching/",
        course.get_absolute_url(),
        "/zh-hans/teaching/",
        "/publications/feed/",
        "/sitemap.xml",
        "/publications/export.bib",
    ]
    # The static copy: each page as a file, served by WhiteNoise from its own gunicorn.
    copy = Path(tempfile.mkdtemp(prefix="labsite-static-copy-"))
    files = {}
    for number, path in enumerate(pages):
        status, body = get(port, path)  # also fills the page cache
        assert status == 200, (path, status)
        files[path] = (f"/{number}.html", len(body))
        (copy / f"{number}.html").write_bytes(body)
    (copy / "health").mkdir()
    (copy / "health" / "index.html").write_text("ok")
    (copy / "static_app.py").write_text(STATIC_APP.format(root=str(copy)))
    static, static_port = start("static_app", env, copy)

    row("page (warm cache)")
    for path in pages:
        copy_path, size = files[path]
        rps, static_rps = best_rps(port, path, seconds, static_port, copy_path)
        row(path, size, rps, static_rps)
    site.terminate()
    if warm_only:
        static.terminate()
        return

    cold, cold_port = start("labsite.wsgi", {**env, "CACHE_URL": "dummycache://"}, ROOT)
    print()
    # The budget (../shared/DESIGN.md) measures cold builds against the team page's, the
    # smallest page built, measured in the same run.
    print(f"{'page (cold: CACHE_URL=dummycache://)':42} {'KB':>5} {'req/s':>7} {'× team':>7}")
    team = best_rps(cold_port, "/people/", seconds, static_port, files["/people/"][0])[0]
    cold_pages = ("/people/teng-ma/", "/zh-hans/people/teng-ma/", "/people/three-hundred/", "/")
    for path in (*cold_pages, "/publications/", "/people/"):
        copy_path, size = files[path]
        rps = best_rps(cold_port, path, seconds, static_port, copy_path)[0]
        print(f"{path[:42]:42} {size / 1024:5.0f} {rps:7,.1f} {team / rps:7.2f}")
    cold.terminate()
    static.terminate()
    if exports:
        export_timings(env, team)


def export_timings(env, team_rps):
    from django.db import transaction
    from profile_render import make_member

    from labsite.page_cache import content_changed
    from publications import exports
    from publications.models import ExportEntry, Venue

    with transaction.atomic():
        make_member("ten-thousand", 10_000 - 340, Venue.objects.first())
    started = time.perf_counter()
    stored = exports.store()
    took = time.perf_counter() - started
    print(f"\nthe task worker stores {stored:,} papers' export entries in {took:.2f} s")
    site, port = start("labsite.wsgi", env, ROOT)
    print(f"{'lab-wide export, 10,000 papers':42} {'cold s':>8} {'× team':>8} {'warm s':>8}")
    paths = ("/publications/export.bib", "/publications/export.json", "/sitemap.xml")
    _export_rows(port, paths, team_rps)
    ExportEntry.objects.all().delete()
    content_changed()  # so that the page cache holds none of them
    print("the same before the worker has run (every paper written afresh):")
    _export_rows(port, paths[:2], team_rps)
    site.terminate()


def _export_rows(port, paths, team_rps):
    for path in paths:
        timings = []
        for _ in range(2):
            started = time.perf_counter()
            status, _body = get(port, path)
            timings.append(time.perf_counter() - started)
            assert status == 200, (path, status)
        cold_ratio = timings[0] * team_rps
        print(f"{path:42} {timings[0]:8.2f} {cold_ratio:8.1f} {timings[1]:8.3f}")


if __name__ == "__main__":
    options = dict(arg[2:].partition("=")[::2] for arg in sys.argv[1:])
    main(
        seconds=int(options.get("seconds") or 3),
        exports="exports" in options,
        warm_only="warm-only" in options,
    )
