"""The site's search at 10,000 papers, 1,000 posts and 500 people: the server-side time of
the queries of the test set (95th percentile and worst), the cost the index adds to an
admin save and to a 2,000-entry BibTeX import, and a full rebuild.

    .venv/bin/python bench/search.py                 # SQLite (a scratch file)
    DATABASE_URL=postgres://… .venv/bin/python bench/search.py

Every figure is measured in this one run; the added costs are ratios against the same work
with the index's follower switched off.
"""

import statistics
import time

from _setup import best_of, django_on_scratch_database
from import_bibtex import generate

PAPERS, POSTS, PEOPLE = 10_000, 1_000, 500


def main():
    django_on_scratch_database(debug=False)
    import sys

    sys.path.insert(0, ".")
    from django.db import transaction
    from django.test.utils import CaptureQueriesContext

    from core import changes
    from labsite import search
    from publications import importing
    from tests.labsite.test_search import DEMO_QUERIES, GENERATED_QUERIES, _generated_lab
    from website.models import Post

    _generated_lab(papers=PAPERS - 2000, posts=POSTS, people=PEOPLE)
    started = time.perf_counter()
    search.rebuild()
    pages = PAPERS - 2000 + POSTS + PEOPLE + 4
    print(f"rebuild of {pages} pages: {time.perf_counter() - started:.1f} s")

    def import_2000(seed):
        entries = generate(2000, seed=seed).replace("key", f"k{seed}-")
        entries = entries.replace("Number ", f"Number {seed}-").replace("bench.", f"bench{seed}.")
        with transaction.atomic():
            importing.apply(importing.plan(importing.read_bibtex(entries)))

    def without_index(function):
        """`function` run with the index's follower off (core/changes.py reads it per call)."""
        original = changes.followers
        changes.followers = lambda declaration="on_content_change": (
            [] if declaration == "on_row_change" else original(declaration)
        )
        try:
            return function()
        finally:
            changes.followers = original

    started = time.perf_counter()
    without_index(lambda: import_2000(1))
    plain = time.perf_counter() - started
    started = time.perf_counter()
    import_2000(2)
    indexed = time.perf_counter() - started
    print(
        f"2,000-entry import: {plain:.2f} s without the index, {indexed:.2f} s with it "
        f"(+{(indexed / plain - 1) * 100:.0f}%)"
    )

    post = Post.objects.filter(is_published=True).first()

    def save():
        with transaction.atomic():
            post.title_en = post.title_en + "."
            post.save()

    plain = best_of(15, lambda: without_index(save))
    indexed = best_of(15, save)
    print(
        f"a post's save: {plain * 1000:.1f} ms without the index, {indexed * 1000:.1f} ms "
        f"with it (+{(indexed / plain - 1) * 100:.0f}%)"
    )

    queries = [q for q, _expected in DEMO_QUERIES + GENERATED_QUERIES]
    times = []
    for query in queries:
        search.find(query)  # warm
        times.append(best_of(3, lambda query=query: search.find(query)))
    from django.db import connection

    with CaptureQueriesContext(connection) as captured:
        search.find("holographc tensor")
    times.sort()
    p95 = times[int(len(times) * 0.95) - 1]
    print(
        f"{len(queries)} queries at {PAPERS} papers: "
        f"median {statistics.median(times) * 1000:.1f} ms, "
        f"p95 {p95 * 1000:.1f} ms, worst {times[-1] * 1000:.1f} ms ({connection.vendor}); "
        f"a query with a typo: {len(captured)} statements"
    )


if __name__ == "__main__":
    main()
