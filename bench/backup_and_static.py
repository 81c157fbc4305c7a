"""Archive size and export/import time (demo lab; demo lab plus 10,000 generated papers),
and the static copy's time and file count, in full and after one edit.

    .venv/bin/python bench/backup_and_static.py [--papers 10000]

Runs with DEBUG off, on a scratch SQLite database (BENCH_DATABASE_URL for PostgreSQL).
"""

import argparse
import io
import os
import tempfile
import time
from pathlib import Path

from _setup import django_on_scratch_database


def timed(function):
    start = time.perf_counter()
    value = function()
    return value, time.perf_counter() - start


def archive_round_trip(label):
    from labsite import archive
    from publications.models import Authorship, Publication

    written = io.BytesIO()
    _, export_time = timed(lambda: archive.export_lab(written))
    papers, authors = Publication.objects.count(), Authorship.objects.count()
    archive._delete_content(accounts=True)
    _, import_time = timed(lambda: archive.import_lab(io.BytesIO(written.getvalue())))
    assert Publication.objects.count() == papers
    print(
        f"{label:<28} {papers:>6} papers {authors:>6} authorships  archive "
        f"{len(written.getvalue()) / 1024:>8,.0f} KiB  export {export_time:6.2f} s  "
        f"import {import_time:6.2f} s"
    )


def static_copy():
    from labsite.static_site import export_static
    from people.models import Person

    folder = Path(tempfile.mkdtemp(prefix="labsite-static-"))
    full, full_time = timed(lambda: export_static(folder, "https://lab.example.org/"))
    Person.objects.filter(slug="feng-ren").update(title="Professor of Systems")
    again, again_time = timed(lambda: export_static(folder, "https://lab.example.org/"))
    print(
        f"static copy, full:           {full.files:>5} files, {len(full.written):>5} written  "
        f"{full_time:6.2f} s"
    )
    print(
        f"static copy, after one edit: {again.files:>5} files, {len(again.written):>5} written  "
        f"{again_time:6.2f} s"
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=10_000)
    papers = parser.parse_args().papers
    django_on_scratch_database(debug=False)
    os.environ.setdefault("ALLOWED_HOSTS", "lab.example.org")
    from django.core.management import call_command
    from import_bibtex import generate

    from publications import importing

    call_command("load_demo", stdout=io.StringIO())
    archive_round_trip("demo lab")
    static_copy()
    importing.apply(importing.plan(importing.read_bibtex(generate(papers), "generated.bib")))
    archive_round_trip(f"demo lab + {papers:,} papers")


if __name__ == "__main__":
    main()
