"""What each layer of the page cache (labsite/page_cache/) earns: warm pages served by
gunicorn (one sync worker, DEBUG off) with every layer, then with each layer taken away in
turn, each against WhiteNoise serving the page's static copy, measured in alternation
(bench/serve.py's way: best of three, one run, a shared and noisy machine).

    .venv/bin/python bench/page_cache_layers.py [--seconds=3]

The database and cache are the run's own: the embedded default (SQLite, local memory), or
production's with BENCH_DATABASE_URL=postgres://… and CACHE_URL=redis://… (the push layer
exists only on PostgreSQL). Layers:
- wrapper: `CachedPagesApp` answers a hit before Django starts (else the middleware does);
- recent pages: each process keeps the pages it served last (else every hit asks the cache);
- push: a PostgreSQL worker told of no change reads no version (else every hit reads it).
Needs wrk (Debian's package `wrk`).
"""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from _setup import ROOT, django_on_scratch_database
from serve import PYTHON, STATIC_APP, best_rps, get, make_lab, start

PAGES = ("/", "/people/", "/people/teng-ma/", "/zh-hans/people/teng-ma/", "/publications/")
# Each variant: (name, its WSGI module's text, its environment's additions).
WITH_EVERY_LAYER = "from labsite.wsgi import application\n"
VARIANTS = (
    ("every layer", WITH_EVERY_LAYER, {}),
    (
        "without the wrapper (the middleware answers hits)",
        "from labsite.wsgi import application as wrapper\napplication = wrapper.application\n",
        {},
    ),
    (
        "without recent pages (each hit asks the cache)",
        WITH_EVERY_LAYER + "from labsite.page_cache import recent_pages\n"
        "recent_pages.max_bytes = 0\n",
        {},
    ),
    ("without push (each hit reads the version)", WITH_EVERY_LAYER, {"CONTENT_VERSION_PUSH": "0"}),
)


def main(seconds=3):
    if not shutil.which("wrk"):
        sys.exit("bench/page_cache_layers.py needs wrk: apt-get install wrk")
    scratch = django_on_scratch_database(debug=False)
    make_lab(papers_for_bench_member=30)
    from django.db import connection

    postgresql = connection.vendor == "postgresql"
    env = {
        **os.environ,
        "STATIC_ROOT": str(scratch / "static"),
        "SECURE_SSL_REDIRECT": "off",
        "ALLOWED_HOSTS": "127.0.0.1",
        "PYTHONPATH": str(ROOT),
    }
    manage = [PYTHON, "manage.py", "collectstatic", "--no-input", "-v0"]
    subprocess.run(manage, cwd=ROOT, env=env, check=True)
    apps = Path(tempfile.mkdtemp(prefix="labsite-layers-"))
    copy = apps / "copy"
    copy.mkdir()
    (copy / "health").mkdir()
    (copy / "health" / "index.html").write_text("ok")
    (copy / "static_app.py").write_text(STATIC_APP.format(root=str(copy)))

    site, port = start("labsite.wsgi", env, ROOT)
    files = {}
    for number, path in enumerate(PAGES):
        status, body = get(port, path)
        assert status == 200, (path, status)
        files[path] = f"/{number}.html"
        (copy / f"{number}.html").write_bytes(body)
    site.terminate()
    static, static_port = start("static_app", env, copy)
    cache = os.environ.get("CACHE_URL", "locmem://")
    print(f"{connection.vendor}, cache {cache}: warm pages ÷ their static copies")
    print(f"{'layers':52} " + " ".join(f"{path[:13]:>13}" for path in PAGES) + "   mean")
    for number, (name, module, added) in enumerate(VARIANTS):
        if added.get("CONTENT_VERSION_PUSH") and not postgresql:
            continue
        (apps / f"variant{number}.py").write_text(module)
        process, variant_port = start(f"variant{number}", {**env, **added}, apps)
        ratios = []
        for path in PAGES:
            get(variant_port, path)  # the page stored in this process's cache
            rps, static_rps = best_rps(variant_port, path, seconds, static_port, files[path])
            ratios.append(rps / static_rps)
        process.terminate()
        cells = " ".join(f"{ratio:13.3f}" for ratio in ratios)
        print(f"{name[:52]:52} {cells} {sum(ratios) / len(ratios):6.3f}", flush=True)
    static.terminate()


if __name__ == "__main__":
    arguments = dict(a.removeprefix("--").split("=") for a in sys.argv[1:])
    main(seconds=int(arguments.get("seconds", 3)))
