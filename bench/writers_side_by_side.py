"""Writers side by side: imports (the task worker's share) in one process while an admin
saves papers through the admin's change form in another, on one database.

    .venv/bin/python bench/writers_side_by_side.py 300 30      # SQLite: 300-entry imports, 30 s
    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/labsite_bench \\
        .venv/bin/python bench/writers_side_by_side.py 6000    # PostgreSQL: one long import

The worker imports generated BibTeX files of ENTRIES entries (publications/importing, as the
admin's import and the site import do; each import one transaction), one after another for
SECONDS (once when none are given); the admin opens and saves a paper's change form every
0.2 s meanwhile. Printed: the imports, the saves' median and slowest commit times, and every
"database is locked" or deadlock."""

import multiprocessing
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _setup import django_on_scratch_database
from import_bibtex import generate


def _importer(entries, seconds, finished, results):
    from django.db import OperationalError, close_old_connections

    from publications import importing

    timings, failures, first = [], [], 10_000
    deadline = time.monotonic() + seconds
    while not timings or time.monotonic() < deadline:
        start, text = time.monotonic(), generate(entries, first=first)
        first += entries
        try:
            importing.apply(importing.plan(importing.read_bibtex(text, "bench.bib")))
        except OperationalError as error:
            failures.append(str(error))
        timings.append(time.monotonic() - start)
        close_old_connections()
    finished.set()
    results.put(("import", timings, failures))


def _admin(finished, results):
    from django.contrib.auth.models import User
    from django.db import OperationalError
    from django.test import Client
    from django.test.utils import setup_test_environment

    from publications.models import Publication
    from tests.admin_forms import form_data

    setup_test_environment()  # the rendered form's context, which form_data reads
    client = Client()
    client.force_login(User.objects.get(username="bench-admin"))
    papers = list(Publication.objects.order_by("pk").values_list("pk", flat=True)[:20])
    times, failures = [], []
    while not finished.is_set():
        pk = papers[len(times) % len(papers)]
        url = f"/admin/publications/publication/{pk}/change/"
        try:
            form = client.get(url)
            assert form.status_code == 200, (url, form.status_code, form.get("Location"))
            data = form_data(form, note=f"save {len(times)}")
            start = time.monotonic()
            answer = client.post(url, data)
            times.append(time.monotonic() - start)
            if answer.status_code != 302:
                failures.append(f"save answered {answer.status_code}")
        except OperationalError as error:
            failures.append(str(error))
        time.sleep(0.2)
    results.put(("saves", times, failures))


def main():
    entries = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 0
    django_on_scratch_database()
    from django.contrib.auth.models import User
    from django.db import connections

    from publications import importing

    importing.apply(importing.plan(importing.read_bibtex(generate(40), "seed.bib")))
    User.objects.create_superuser("bench-admin", "admin@lab.example", "x")
    connections.close_all()

    fork = multiprocessing.get_context("fork")
    results, finished = fork.Queue(), fork.Event()
    workers = [
        fork.Process(target=_importer, args=(entries, seconds, finished, results)),
        fork.Process(target=_admin, args=(finished, results)),
    ]
    for worker in workers:
        worker.start()
    found = dict(
        (kind, (value, failures)) for kind, value, failures in (results.get() for _ in workers)
    )
    for worker in workers:
        worker.join()

    imports, import_failures = found["import"]
    saves, save_failures = found["saves"]
    engine = connections["default"].vendor
    print(f"{engine}: an import and an admin's saves side by side")
    print(f"imports of {entries:,} entries:          {len(imports)}, {sum(imports):.1f} s")
    print(f"the longest import:                {max(imports):.1f} s")
    print(f"admin saves done:                  {len(saves)}")
    print(f"save commit time, median:          {statistics.median(saves):.3f} s")
    print(f"save commit time, slowest:         {max(saves):.3f} s")
    failures = import_failures + save_failures
    locked = sum("locked" in f for f in failures)
    deadlocks = sum("deadlock" in f.lower() for f in failures)
    print(f'"database is locked":              {locked}')
    print(f"deadlocks:                         {deadlocks}")
    print(f"other failures:                    {len(failures) - locked - deadlocks}")
    for failure in failures[:5]:
        print("  ", failure)


if __name__ == "__main__":
    main()
