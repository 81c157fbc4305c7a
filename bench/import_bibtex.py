"""Import a generated 2,000-entry BibTeX file; compare with bibtexparser's own parse.

    .venv/bin/python bench/import_bibtex.py

Prints both times, their ratio (measured in the same run), and queries per entry. Runs with
DEBUG off, as an import in production does.
"""

import random

from _setup import best_of, django_on_scratch_database

ENTRIES = 2000


def generate(n, seed=7, first=0):
    """`n` BibTeX entries, numbered from `first` (each number its own title and DOI)."""
    rng = random.Random(seed)
    families = [
        "Ma",
        "Ren",
        "Zhang",
        "Wu",
        "Chen",
        "Qin",
        'M{\\"u}ller',
        "Garc{\\'i}a",
        "Li",
        "Liu",
    ]
    givens = [
        "Teng",
        "Feng",
        "Mingxing",
        "Yongwei",
        "Kang",
        "Ruoyu",
        'J{\\"o}rg',
        "Ana",
        "Wei",
        "Zheng",
    ]
    venues = [
        "Proceedings of the ACM Symposium on Operating Systems Principles (SOSP '24)",
        "ACM Transactions on Storage",
        "USENIX Annual Technical Conference (ATC '23)",
    ]
    out = []
    for i in range(first, first + n):
        authors = " and ".join(
            f"{rng.choice(families)}, {rng.choice(givens)}" for _ in range(rng.randint(2, 12))
        )
        kind = rng.choice(["inproceedings", "article"])
        where = "journal" if kind == "article" else "booktitle"
        out.append(
            f"@{kind}{{key{i},\n"
            f"  title = {{A Study of {{RDMA}} Systems Number {i}: Memory \\& Storage}},\n"
            f"  author = {{{authors}}},\n"
            f"  {where} = {{{rng.choice(venues)}}},\n"
            f"  year = {{{rng.randint(2000, 2026)}}},\n"
            f"  month = {rng.choice(['jan', 'jun', 'dec'])},\n"
            f"  pages = {{{i}--{i + 12}}},\n"
            f"  doi = {{10.5555/bench.{i}}}\n}}\n"
        )
    return "\n".join(out)


def main():
    django_on_scratch_database(debug=False)
    import bibtexparser
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from people.models import Person
    from publications import importing
    from publications.models import Publication

    Person.objects.create(name="Teng Ma", slug="teng-ma", orcid="0000-0002-7104-1526")
    Person.objects.create(name="Feng Ren", slug="feng-ren")
    text = generate(ENTRIES)
    print(f"BibTeX file: {ENTRIES} entries, {len(text.encode()) / 1024:.0f} KiB")

    parse_time = best_of(7, lambda: bibtexparser.parse_string(text))

    def full_import():
        with transaction.atomic():
            plans = importing.plan(importing.read_bibtex(text, "bench.bib"))
            summary = importing.apply(plans)
            assert summary.created == ENTRIES, summary
            transaction.set_rollback(True)

    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        full_import()
    import_time = best_of(3, full_import)
    assert not Publication.objects.exists()

    print(f"bibtexparser.parse_string:           {parse_time:7.2f} s")
    print(f"import (read + plan + apply):        {import_time:7.2f} s")
    print(f"ratio import / bibtexparser parse:   {import_time / parse_time:7.2f}")
    print(f"queries: {len(queries)} in all, {len(queries) / ENTRIES:.2f} per entry")


if __name__ == "__main__":
    main()
