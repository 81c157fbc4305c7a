"""Shared start for bench scripts: Django on a throwaway SQLite database, migrated."""

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def django_on_scratch_database(debug=True, migrate=True):
    """Set up Django on a new scratch database (BENCH_DATABASE_URL names another), migrated
    unless `migrate` is false. `debug=False` runs as production does (no query log, no
    debug cursors), for timings of work that never renders a page."""
    sys.path.insert(0, str(ROOT))
    scratch = Path(tempfile.mkdtemp(prefix="labsite-bench-"))
    os.environ.update(
        DJANGO_SETTINGS_MODULE="labsite.settings",
        LABSITE_ENV_FILE=os.devnull,
        DEBUG="on" if debug else "off",
        SECRET_KEY="bench-only-" + "x" * 50,
        ALLOWED_HOSTS="testserver,127.0.0.1,localhost",
        DATABASE_URL=os.environ.get("BENCH_DATABASE_URL", f"sqlite:///{scratch / 'bench.sqlite3'}"),
        MEDIA_ROOT=str(scratch / "media"),
    )
    import django
    from django.core.management import call_command

    django.setup()
    if migrate:
        call_command("migrate", verbosity=0)
    return scratch


def best_of(runs, function):
    """The fastest of `runs` timings: the least disturbed by a shared, noisy machine."""
    import time

    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)
