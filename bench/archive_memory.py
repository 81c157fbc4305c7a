"""Peak memory of export_lab and import_lab on a large lab: both stream, so the peak
should not grow with the number of papers.

    .venv/bin/python bench/archive_memory.py [--papers 100000]

Builds the demo lab plus generated papers on a scratch SQLite database, then runs the
export, and the restore into a new empty database, each in a process of its own, and
prints each one's peak resident memory beside that of a process that only starts Django.
"""

import argparse
import io
import os
import resource
import subprocess
import sys
import time

from _setup import ROOT, django_on_scratch_database

STEP = 10_000  # papers imported at a time while building the lab


def child(action, database, path):
    """In a process of its own: Django on `database`, then `action` on the archive `path`."""
    os.environ["BENCH_DATABASE_URL"] = database
    django_on_scratch_database(debug=False, migrate=action == "import")
    from labsite import archive

    start = time.perf_counter()
    if action == "export":
        archive.export_lab(path)
    elif action == "import":
        archive.import_lab(path)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{action:<8} {time.perf_counter() - start:8.1f} s  peak {peak:6.0f} MB")


def run(*args):
    subprocess.run([sys.executable, __file__, *args], check=True, cwd=ROOT)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--child", nargs=3, metavar=("ACTION", "DATABASE", "ARCHIVE"))
    options = parser.parse_args()
    if options.child:
        child(*options.child)
        return
    scratch = django_on_scratch_database(debug=False)
    from django.conf import settings
    from django.core.management import call_command
    from import_bibtex import generate

    from publications import importing
    from publications.models import Authorship, Publication

    call_command("load_demo", stdout=io.StringIO())
    for start in range(0, options.papers, STEP):
        entries = generate(min(STEP, options.papers - start), seed=start, first=start)
        importing.apply(importing.plan(importing.read_bibtex(entries, "generated.bib")))
    source = f"sqlite:///{settings.DATABASES['default']['NAME']}"
    papers, authors = Publication.objects.count(), Authorship.objects.count()
    print(f"{papers:,} papers, {authors:,} authorships")
    path = str(scratch / "lab.zip")
    run("--child", "none", source, path)
    run("--child", "export", source, path)
    print(f"archive  {os.path.getsize(path) / 2**20:8.0f} MB")
    run("--child", "import", f"sqlite:///{scratch / 'restored.sqlite3'}", path)


if __name__ == "__main__":
    main()
