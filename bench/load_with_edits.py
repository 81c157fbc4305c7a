"""Load with edits: four gunicorn workers on PostgreSQL and Redis, 50 connections reading
public pages for 30 seconds while a member's name is edited every 3 seconds from another
process (a save, as the admin's). Prints requests, errors, and stale pages: answers to
requests sent after an edit had committed that still showed an earlier name.

    .venv/bin/python bench/load_with_edits.py [--seconds=30] [--connections=50]

Needs PostgreSQL on 127.0.0.1:5432 (user postgres, trust) and Redis on 127.0.0.1:6379;
everything runs on the loopback and stops after the given time.
"""

import http.client
import os
import re
import subprocess
import sys
import threading
import time

from _setup import ROOT

PAGES = ["/people/teng-ma/", "/people/", "/"]  # the name is on the first two
DATABASE = f"labsite_bench_{os.getpid()}"
REDIS = "redis://127.0.0.1:6379/8"
NAME = re.compile(rb"Teng Ma \(edit (\d+)\)")


def psql(sql):
    subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres", "-qc", sql],
        check=True,
        capture_output=True,
    )


def setup_django(env):
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("load_demo", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)


def reader(port, stop, results):
    """Requests the pages in turn until `stop`; records (sent, status, edit number shown)."""
    n = 0
    while not stop.is_set():
        path = PAGES[n % len(PAGES)]
        n += 1
        sent = time.monotonic()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("GET", path)
            response = connection.getresponse()
            body = response.read()
            connection.close()
        except OSError as error:
            results.append((sent, path, repr(error), None))
            continue
        shown = NAME.search(body)
        results.append((sent, path, response.status, int(shown.group(1)) if shown else None))


def main(seconds=30, connections=50):
    from serve import start  # bench/serve.py's gunicorn starter

    psql(f"DROP DATABASE IF EXISTS {DATABASE}")
    psql(f"CREATE DATABASE {DATABASE}")
    import redis

    redis.Redis.from_url(REDIS).flushdb()
    env = {
        "DJANGO_SETTINGS_MODULE": "labsite.settings",
        "LABSITE_ENV_FILE": os.devnull,
        "DEBUG": "off",
        "SECRET_KEY": "bench-only-" + "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "off",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
        "CONN_MAX_AGE": "60",
        "CACHE_URL": REDIS,
        "STATIC_ROOT": f"/tmp/{DATABASE}-static",
    }
    try:
        setup_django(env)
        from people.models import Person

        person = Person.objects.get(slug="teng-ma")
        server, port = start("labsite.wsgi", {**os.environ, **env}, ROOT, workers=4)
        stop, results, edits = threading.Event(), [], [(time.monotonic(), 0)]
        person.name = "Teng Ma (edit 0)"
        person.save()
        threads = [
            threading.Thread(target=reader, args=(port, stop, results)) for _ in range(connections)
        ]
        for thread in threads:
            thread.start()
        started = time.monotonic()
        number = 0
        while time.monotonic() - started < seconds:
            time.sleep(3)
            number += 1
            person.name = f"Teng Ma (edit {number})"
            person.save()  # committed (autocommit) when save returns
            edits.append((time.monotonic(), number))
        stop.set()
        for thread in threads:
            thread.join()
        server.terminate()
        report(results, edits, time.monotonic() - started)
    finally:
        from django.db import connections as db

        db.close_all()
        psql(f"DROP DATABASE IF EXISTS {DATABASE}")


def report(results, edits, elapsed):
    errors = [r for r in results if r[2] != 200]
    stale = []
    for sent, path, status, shown in results:
        if status != 200 or path == "/":
            continue
        due = max(number for at, number in edits if at <= sent)  # the last committed edit
        if shown is None or shown < due:
            stale.append((path, shown, due))
    print(f"{len(results):,} requests in {elapsed:.0f} s ({len(results) / elapsed:,.0f} req/s)")
    print(f"{len(edits) - 1} edits, one every 3 s")
    print(f"errors: {len(errors)}" + (f" e.g. {errors[:3]}" if errors else ""))
    print(f"stale after an edit: {len(stale)}" + (f" e.g. {stale[:3]}" if stale else ""))


if __name__ == "__main__":
    options = dict(arg[2:].partition("=")[::2] for arg in sys.argv[1:])
    main(int(options.get("seconds") or 30), int(options.get("connections") or 50))
