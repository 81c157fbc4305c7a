"""Load with edits: four gunicorn workers on PostgreSQL and Redis, 50 connections reading
public pages for 30 seconds while a member's name is edited every 3 seconds from another
process (a save in a transaction, as the admin's). Prints requests, errors, and stale
pages: answers to requests sent after an edit had committed that still showed an earlier
name.

    .venv/bin/python bench/load_with_edits.py [--seconds=30] [--connections=50] [--redis-outage]

Needs PostgreSQL on 127.0.0.1:5432 (user postgres, trust) and Redis on 127.0.0.1:6379;
everything runs on the loopback and stops after the given time. With --redis-outage, the
site uses a Redis server of its own, which stops answering for 6 s a third of the way in
(paused, so it comes back holding every page it stored before): edits go on committing,
and no page from before one may be served after it.
"""

import http.client
import os
import re
import signal
import subprocess
import sys
import threading
import time
from contextlib import suppress

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


def redis_server(port):
    """A Redis server of the bench's own, keeping nothing on disk."""
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    time.sleep(0.5)
    return server


def main(seconds=30, connections=50, redis_outage=False):
    from serve import free_port, start  # bench/serve.py's gunicorn helpers

    psql(f"DROP DATABASE IF EXISTS {DATABASE}")
    psql(f"CREATE DATABASE {DATABASE}")
    import redis

    own_redis, cache_url = None, REDIS
    if redis_outage:
        redis_port = free_port()
        own_redis, cache_url = redis_server(redis_port), f"redis://127.0.0.1:{redis_port}/0"
    redis.Redis.from_url(cache_url).flushdb()
    env = {
        "DJANGO_SETTINGS_MODULE": "labsite.settings",
        "LABSITE_ENV_FILE": os.devnull,
        "DEBUG": "off",
        "SECRET_KEY": "bench-only-" + "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "off",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
        "CONN_MAX_AGE": "60",
        "CACHE_URL": cache_url,
        "STATIC_ROOT": f"/tmp/{DATABASE}-static",
    }
    try:
        setup_django(env)
        from django.db import transaction

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
        number, outage, paused = 0, (seconds / 3, seconds / 3 + 6), False
        while time.monotonic() - started < seconds:
            time.sleep(3)
            down = own_redis is not None and outage[0] <= time.monotonic() - started < outage[1]
            if down != paused:
                own_redis.send_signal(signal.SIGSTOP if down else signal.SIGCONT)
                paused = down
            number += 1
            with transaction.atomic():
                person.name = f"Teng Ma (edit {number})"
                person.save()
            edits.append((time.monotonic(), number))  # committed
        stop.set()
        for thread in threads:
            thread.join()
        server.terminate()
        report(results, edits, time.monotonic() - started)
    finally:
        from django.db import connections as db

        db.close_all()
        psql(f"DROP DATABASE IF EXISTS {DATABASE}")
        if own_redis:
            with suppress(OSError):
                own_redis.terminate()


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
    print(f"{len(edits) - 1} edits, one every 3 s, all committed")
    print(f"errors: {len(errors)}" + (f" e.g. {errors[:3]}" if errors else ""))
    print(f"stale after an edit: {len(stale)}" + (f" e.g. {stale[:3]}" if stale else ""))


if __name__ == "__main__":
    options = dict(arg[2:].partition("=")[::2] for arg in sys.argv[1:])
    main(
        int(options.get("seconds") or 30),
        int(options.get("connections") or 50),
        redis_outage="redis-outage" in options,
    )
