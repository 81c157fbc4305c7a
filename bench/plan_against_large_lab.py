"""Plan five records against a lab of 10,000 publications: the indexes load only what the
records could match, so planning costs the same however large the lab.

    .venv/bin/python bench/plan_against_large_lab.py

Prints the planning time at 100 and at 10,000 existing papers (best of 7, one run) and the
queries planning makes.
"""

from _setup import best_of, django_on_scratch_database
from import_bibtex import generate

EXISTING = 10_000


def main():
    django_on_scratch_database()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from publications import importing
    from publications.models import Publication

    five = importing.read_bibtex(generate(5, seed=99).replace("key", "new"))
    timings = {}
    for size in (100, EXISTING):
        for chunk in range(0, size - (size > 100) * 100, 2000):
            entries = generate(min(2000, size - chunk), seed=chunk)
            entries = entries.replace("key", f"k{chunk}-").replace("Number ", f"Number {chunk}-")
            entries = entries.replace("bench.", f"bench{chunk}.")
            importing.apply(importing.plan(importing.read_bibtex(entries)))
        connection.queries_log.clear()
        with CaptureQueriesContext(connection) as queries:
            importing.plan(five)
        timings[size] = best_of(7, lambda: importing.plan(five))
        papers = Publication.objects.count()
        print(
            f"plan 5 records against {papers:>6} papers: {timings[size] * 1000:6.1f} ms, "
            f"{len(queries)} queries"
        )
    print(f"ratio 10,000 / 100: {timings[EXISTING] / timings[100]:.2f}")


if __name__ == "__main__":
    main()
