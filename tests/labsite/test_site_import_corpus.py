"""`import_site` over the corpus of real sites (tests/labsite/data/corpus and
tests/labsite/data/sites, SOURCES.md in each): no site refused, no traceback, at least 95%
of each site's expected facts landed right, any that does not named in the preview, and a
second run changes nothing. Each fact is right (landed as the facts file says), wrong (what it
names landed with another value), named (not landed, and the preview says so) or lost (not
landed without a word); the table of them per site and in total prints with -s.

Each `<site>.facts.yaml` was written from the site's files by a reader that is not the
importer (front matter split by regex and read by PyYAML, BibTeX by bibtexparser, the
template's own samples left out by their git blob ids), then read over by hand. A personal
site's file names its `owner`, whose profile facts (`title`, `link`, `education`,
`experience`, `award`) must land on that person. A `post` fact gives the post's title (in
English, or in Chinese for a post only the site's Chinese pages hold) and date, and where
the post names them its `authors` (a person's key written as their name) and `draft`: the
lab's post must have that date, those authors, and be unpublished when a draft.
A `publication` fact gives the paper's `year` where the site dates it (a BibTeX entry's
`year`; a page's `date`, or its cite.bib's `year` where that is the same paper's).
`lab_name` and `tagline` are the site's name and description (from _config.yml, Hugo's
configuration), which land in the lab's settings, in English or Chinese."""

import datetime
import io
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml
from django.core.management import call_command
from django.db import transaction

from lab.models import LabSettings
from labsite.site_import import open_site
from labsite.site_import.site import UNEXPECTED
from people.models import Education, Experience, Link, NewsItem, Person, Project
from publications.models import Publication
from talks.models import Award, Talk
from tests.labsite import site_counts
from website.models import Course, Post

pytestmark = pytest.mark.django_db
DATA = Path(__file__).parent / "data"
SITES = sorted(
    path.with_suffix("").with_suffix("")
    for folder in ("corpus", "sites")
    for path in (DATA / folder).glob("*.facts.yaml")
)


def _key(text):
    return re.sub(r"[\W_]+", "", str(text)).casefold()


RIGHT, WRONG = "right", "wrong"


def _fate(fact, owner=None):
    """RIGHT when the fact landed as the facts file says, WRONG when what it names landed with
    another value (a paper's year, a person's alumni flag, a post's date, authors or draft,
    the lab's name or tagline), None when nothing of it landed."""
    kind, value = next(iter(fact.items()))
    if kind in OWNER_FACTS:
        texts = {_key(t) for t in OWNER_FACTS[kind](owner)} if owner is not None else set()
        return RIGHT if _key(value) in texts else None
    if kind == "person":
        person = Person.objects.filter(name=value).first()
        if person is None:
            return None
        return RIGHT if person.is_alumnus == bool(fact.get("alumni")) else WRONG
    if kind == "news":
        return RIGHT if NewsItem.objects.count() >= value else None
    if kind == "post":
        return _post_fate(fact)
    if kind in ("lab_name", "tagline"):
        lab = LabSettings.objects.get()
        field = {"lab_name": "name"}.get(kind, kind)
        texts = [text for text in (getattr(lab, f"{field}_en"), getattr(lab, f"{field}_zh_hans"))]
        if _key(value) in {_key(text) for text in texts}:
            return RIGHT
        return WRONG if any(texts) else None
    if kind == "publication":
        years = [
            paper.date.year if paper.date else None
            for paper in Publication.objects.only("title", "date")
            if _key(paper.title) == _key(value)
        ]
        if not years:
            return None
        return RIGHT if fact.get("year", years[0]) in years else WRONG
    model, field = {
        "project": (Project, "name_en"),
        "talk": (Talk, "title_en"),
        "course": (Course, "title_en"),
    }[kind]
    titles = {_key(title) for title in model.objects.values_list(field, flat=True)}
    return RIGHT if _key(value) in titles else None


def _post_fate(fact):
    date = datetime.date.fromisoformat(str(fact["date"]))
    posts = [
        post
        for post in Post.objects.prefetch_related("authors__person")
        if _key(fact["post"]) in (_key(post.title_en), _key(post.title_zh_hans))
    ]
    for post in posts:
        authors = [author.person.name for author in post.authors.all()]
        if (
            post.date == date
            and authors == fact.get("authors", authors)
            and post.is_published != bool(fact.get("draft"))
        ):
            return RIGHT
    return WRONG if posts else None


OWNER_FACTS = {  # what of the owner's profile holds each kind of fact, as texts
    "title": lambda owner: [owner.title_en],
    "link": lambda owner: Link.objects.filter(person=owner).values_list("url", flat=True),
    "education": lambda owner: [
        t for row in Education.objects.filter(person=owner) for t in (row.institution, row.degree)
    ],
    "experience": lambda owner: [
        t for row in Experience.objects.filter(person=owner) for t in (row.title, row.organization)
    ],
    "award": lambda owner: Award.objects.filter(recipients__person=owner).values_list(
        "name_en", flat=True
    ),
}


def _import(site):
    out = io.StringIO()
    call_command("import_site", str(site), "--apply", stdout=out)
    return out.getvalue()


def _rows():
    return {
        model.__name__: sorted(model.objects.values_list("pk", flat=True))
        for model in (Person, Publication, Project, Talk, NewsItem, Post)
    }


COLUMNS = ("facts", "right", "wrong", "lost", "named")


def _table_row(name, counts):
    return f"{name:34}" + "".join(f"{counts[column]:>7}" for column in COLUMNS)


@pytest.fixture(scope="module")
def corpus_table():
    """Each site's facts by fate, printed as one table with its total once every site ran."""
    table = {}
    yield table
    total = sum(table.values(), Counter())
    rows = [_table_row(name, counts) for name, counts in sorted(table.items())]
    print("\n" + f"{'site':34}" + "".join(f"{column:>7}" for column in COLUMNS))
    print("\n".join([*rows, _table_row(f"total ({len(table)} sites)", total)]))


@pytest.fixture(scope="module", params=SITES, ids=lambda path: path.name)
def imported(request, django_db_setup, django_db_blocker):
    """(site, the import's report): each site imported once for every test here, and rolled
    back after them (each test's own changes roll back to the imported site)."""
    with django_db_blocker.unblock(), transaction.atomic():
        report = _import(request.param)  # no refusal, no traceback: either raises here
        yield request.param, report
        transaction.set_rollback(True)


def test_a_real_site_lands_whole_and_a_second_run_changes_nothing(imported, corpus_table):
    site, report = imported
    expected = yaml.safe_load(site.with_suffix(".facts.yaml").read_text())
    facts = expected["facts"] + ([{"person": expected["owner"]}] if "owner" in expected else [])

    assert UNEXPECTED not in report
    owner = Person.objects.filter(name=expected.get("owner")).first()
    fates = [(fact, _fate(fact, owner)) for fact in facts]
    wrong = [fact for fact, fate in fates if fate == WRONG]
    missing = [fact for fact, fate in fates if fate is None]
    named = [f for f in missing if _key(next(iter(f.values()))) in _key(report)]
    lost = [fact for fact in missing if fact not in named]
    counts = corpus_table[site.name] = Counter(
        right=len(facts) - len(wrong) - len(missing),
        wrong=len(wrong),
        lost=len(lost),
        named=len(named),
        facts=len(facts),
    )
    print(_table_row(site.name, counts))  # -s shows it, and the corpus's total at the end
    for fact in wrong:
        print(f"  wrong: {fact}")
    assert counts["right"] >= 0.95 * len(facts), (wrong, missing)
    assert lost == []  # none lost without a word
    assert not [fact for fact in wrong + missing if "post" in fact]  # every post, as dated
    rows = _rows()

    again = _import(site)

    assert "Imported: 0 rows new or updated." in again
    assert _rows() == rows


def test_every_image_tag_formula_and_code_block_of_a_real_site_lands_or_is_named(imported):
    """Counted from the site's files by the test's own reader (tests/labsite/site_counts.py):
    body images, featured images, tags, formulas and code blocks; each is in what the lab
    holds after the import, or the import names it (its file, and why)."""
    site, report = imported
    with open_site(site) as read:  # the ledger, by file and key; a Hugo site may be below
        rows = {(row.file, row.key): row.status for row in read.ledger.rows}
        root = read.root
    lines = [line.removeprefix("  - ") for line in report.splitlines()]
    pools = site_counts.landed_pools()

    fates, lost = {kind: Counter() for kind in site_counts.KINDS}, []
    for item in site_counts.found_items(root):
        if site_counts.has_landed(item, pools):
            fates[item.kind]["landed"] += 1
        elif site_counts.is_named(item, lines, rows):
            fates[item.kind]["named"] += 1
        else:
            fates[item.kind]["lost"] += 1
            lost.append(item)
    table = site_counts.table(site.name, fates)
    print(table)  # found, landed, named and lost per kind (-s shows it)
    assert lost == [], f"{table}\n" + "\n".join(map(str, lost[:20]))
    shown = site_counts.shown()  # what landed, the pages show (and more: `$x$`, indented code)
    assert all(shown[kind] >= fates[kind]["landed"] for kind in ("body image", "math", "code"))
