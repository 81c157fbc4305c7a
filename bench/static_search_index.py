"""The static copy's search index (Pagefind) at 10,000 papers: the demo lab exported, then
10,000 paper pages in each language added beside its own, each the demo's paper page with
another title, authors and an 80-word abstract (the pages a 10,000-paper lab's copy has;
rendering them is the export's part, not the index's), and the copy's index step run on
it as export_static runs it: once, then again over the same pages.

    .venv/bin/python bench/static_search_index.py [--papers 10000]

Budget (issue 51): the index adds at most 30 s to a full export. An export whose pages did
not change since the last one returns before rendering or indexing (export_static's
marker), which bench/backup_and_static.py shows ("nothing changed").
"""

import argparse
import io
import os
import random
import re
import tempfile
import time
from pathlib import Path

from _setup import django_on_scratch_database

WORDS = [
    f"{a}{b}"
    for a in ("stor", "comput", "network", "quant", "graph")
    for b in ("age", "er", "ing", "ize", "ation", "ist", "ics", "ed")
] + ["memory", "cache", "system", "model", "learning", "data", "scale", "cloud"]
NAMES = ["Teng Ma", "Feng Ren", "Wei Zhang", "Ana García", "Jörg Müller", "Kang Chen"]


def add_papers(target, papers):
    """`papers` paper pages in each language, made from the export's first paper page."""
    from publications.models import Publication

    rng = random.Random(7)
    slug = Publication.objects.published().order_by("pk").values_list("slug", flat=True)[0]
    pages = {
        prefix: (target / f"{prefix}publications/{slug}/index.html").read_text()
        for prefix in ("", "zh-hans/")
    }
    title = re.search(r"<h1>(.*?)</h1>", pages[""], re.S).group(1)
    for i in range(papers):
        authors = ", ".join(rng.choices(NAMES, k=rng.randint(2, 12)))
        abstract = " ".join(rng.choices(WORDS, k=80))
        for prefix, page in pages.items():
            html = page.replace(title, f"A Study of RDMA Systems Number {i}: Memory &amp; Storage")
            html = html.replace(
                "<h1>", f'<p class="authors">{authors}</p><p class="abstract">{abstract}</p><h1>', 1
            )
            folder = target / f"{prefix}publications/generated-{i}"
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "index.html").write_text(html)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=10_000)
    papers = parser.parse_args().papers
    django_on_scratch_database(debug=False)
    os.environ.setdefault("ALLOWED_HOSTS", "lab.example.org")
    from django.core.management import call_command

    from labsite import search, static_site

    call_command("load_demo", stdout=io.StringIO())
    search.rebuild()  # the copy's index holds the pages the live search finds
    target = Path(tempfile.mkdtemp(prefix="labsite-static-"))
    static_site.export_static(target, "https://lab.example.org/")
    add_papers(target, papers)
    pages = sum(1 for _ in target.rglob("*.html"))
    searched = sum("data-pagefind-body" in p.read_text() for p in target.rglob("*.html"))
    for label in ("the index built", "built again over the same pages"):
        result = static_site.Result()
        started = time.perf_counter()
        static_site._index_for_search(target, result)
        assert not result.broken, result.broken
        print(
            f"{label}: {time.perf_counter() - started:.1f} s for {pages:,} pages "
            f"({searched:,} searched); {len(result.written):,} index files written, "
            f"{len(result.unchanged):,} left as they were"
        )


if __name__ == "__main__":
    main()
