"""Archive size and export/import time (demo lab; demo lab plus 10,000 generated papers),
and the static copy's time and file count, in full and after one edit.

    .venv/bin/python bench/backup_and_static.py [--papers 10000] [--static-papers]

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


def static_copy(label):
    """A full export, a re-run with nothing changed, and a re-run after one edit; and the
    share of the full export spent rendering pages (the rest is around them)."""
    from labsite import static_site
    from people.models import Person

    rendering = []
    render = static_site._Site.get

    def timed_render(*args, **kwargs):
        start = time.perf_counter()
        response = render(*args, **kwargs)
        rendering.append(time.perf_counter() - start)
        return response

    indexing = []
    index = static_site._index_for_search

    def timed_index(*args, **kwargs):
        start = time.perf_counter()
        index(*args, **kwargs)
        indexing.append(time.perf_counter() - start)

    static_site._Site.get = timed_render
    static_site._index_for_search = timed_index
    folder = Path(tempfile.mkdtemp(prefix="labsite-static-"))
    export = lambda: static_site.export_static(folder, "https://lab.example.org/")  # noqa: E731
    full, full_time = timed(export)
    share, search_index = sum(rendering) / full_time, sum(indexing)
    indexing.clear()
    same, same_time = timed(export)
    search_on_rerun = sum(indexing)
    person = Person.objects.get(slug="feng-ren")
    person.title_en = f"Professor of Systems ({label})"  # a new value on every run
    person.save()
    edited, edited_time = timed(export)
    static_site._Site.get = render
    static_site._index_for_search = index
    print(
        f"static copy of {label}: {full.files:,} files in {full_time:.1f} s "
        f"({share:.0%} of it rendering pages, {search_index:.1f} s Pagefind's search index); "
        f"nothing changed: {same_time:.2f} s ({search_on_rerun:.2f} s indexing), "
        f"{same.kept:,} files kept; one edit: {edited_time:.1f} s, "
        f"{len(edited.written):,} files written"
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument(
        "--static-papers", action="store_true", help="a static copy of the large lab too"
    )
    options = parser.parse_args()
    papers = options.papers
    django_on_scratch_database(debug=False)
    os.environ.setdefault("ALLOWED_HOSTS", "lab.example.org")
    from django.core.management import call_command
    from import_bibtex import generate

    from publications import importing

    call_command("load_demo", stdout=io.StringIO())
    archive_round_trip("demo lab")
    static_copy("the demo lab")
    importing.apply(importing.plan(importing.read_bibtex(generate(papers), "generated.bib")))
    from labsite import search

    search.rebuild()  # the task worker's part after an import: the copy's search has them all
    archive_round_trip(f"demo lab + {papers:,} papers")
    if options.static_papers:
        static_copy(f"the demo lab + {papers:,} papers")


if __name__ == "__main__":
    main()
