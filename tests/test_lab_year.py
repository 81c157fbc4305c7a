"""A lab's year, scripted on a fresh lab: the place every feature adds its step.

The steps, in order (each checks the invariants below before the next begins):
 0. the demo lab is loaded and removed again (`remove_demo`): nothing of it stays;
 1. a real lab site moves in (al-folio, tests/labsite/data/corpus/alfolio-taislab), twice;
    then a small Hugo (Wowchemy) lab's site, written here, twice: its people, papers with
    their PDF and arXiv links, and news;
 2. a real BibTeX file is imported (tests/publications/data/bibtex/0x404-papers.bib);
 3. a member edits a paper's title and their own profile; the lab writes a page (in the
    menu), a research theme, an opening and a post; the opening is closed early, today; a
    course is given again the next year; the lab's address is written in Chinese;
    then two images are uploaded through the admin, one featured on the post and shown in
    the page's text, replaced, kept while used (the admin says where), the other deleted;
 4. week 1: a harvest over recorded answers, from two of the five sources;
 5. review: one work accepted, one rejected, one disowned ("not mine");
 6. week 2: every source answers, one more work appears, counts move; a preprint and then
    its journal version accepted become one paper;
 7. week 3: OpenAlex has merged the member's author id into another;
 8. a citation refresh; a member whose name ends in "Jr." harvested, his ORCID on two of
    the sources only: his paper is his, his suffix a suffix; the lab admin has posters
    harvested and theses no more, and a harvest brings his poster and counts his thesis;
    a member read from Semantic Scholar, Europe PMC and DataCite (real recorded answers):
    their works come in, datasets and software counted, his paper his by his S2 id;
    auto-accept on for half of the sources: a new paper of his, completed by its DOI,
    is accepted by the run, his digest links its undo, and undoing it leaves the lab as
    before that harvest;
 9. an invitation (mail after commit); a member names a co-author on a post, who
    confirms before the post shows them;
10. a backup, then more work (a harvest run, an edit, a newcomer), then the backup restored
    with --replace;
11. a rollback the Chinese texts refuse;
12. a rollback that would drop the research themes' table, refused; an upgrade: publications
    rolled back to the previous release's schema and forward again;
13. a weekly harvest cut off (its worker killed mid-run) is released by the next one, which
    runs;
14. an archive written by a release from before the change log (tests/labsite/data/
    past_releases) restored over the lab, then today's backup restored;
15. `remove_demo` once more, on the lab's own year: nothing changes.

The invariants:
- no fact changed that no person and no source changed: every field of every person,
  paper, author row (in order, with roles and links), venue and talk is compared with the
  step before, and only the fields the step names may differ;
- a source fills only what a paper lacks: a harvest or a refresh never overwrites a fact;
- a rejected or disowned work never comes back, and no work is a candidate twice;
- the sitemap names every page each registered section's rule makes public, in both
  languages (lab/sections.py);
- every row of the archive comes back (a dump of the restored lab equals the backup's);
- an operation that is refused changes nothing: schema (applied migrations, tables and
  columns) and data compared;
- no page built before a save is served after it;
- the search finds what the pages show: after every step the index is exactly what a
  rebuild from the lab's rows makes (nothing removed is found, nothing added is missing),
  and a visitor finds the step's new and changed rows by their words.

Run with `-s` to print the number of facts checked at each step."""

import io
import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.core import mail
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder
from django.test import Client
from django.utils import timezone, translation

from core import content
from core.partial_dates import PartialDate
from harvest import review
from harvest.models import Candidate, HarvestRun, Source
from harvest.sources import harvesters
from lab import sections
from lab.models import LabSettings
from labsite import archive, search
from labsite.models import SearchDocument, SearchTerm
from media.models import MediaItem
from people.models import NewsItem, Person
from publications import importing
from publications.importing.citations import refresh_counts
from publications.models import Publication
from tests import factories
from tests.admin_forms import form_data
from tests.harvest import test_identities_across_sources as suffixed
from tests.harvest import test_three_more_sources as more_sources
from tests.harvest.conftest import piwowar, services  # noqa: F401
from tests.labsite.test_archive import _dump
from tests.sitemaps import whole_sitemap
from website.models import Opening, Post

pytestmark = pytest.mark.django_db(transaction=True)
DATA = Path(__file__).parent
SITE = DATA / "labsite/data/corpus/alfolio-taislab"
BIBTEX = DATA / "publications/data/bibtex/0x404-papers.bib"
# Every model of the lab's content (declared once, core/content.py) but the harvest's own
# queue, whose rows record what the sources said and the reviews decided.
FACT_MODELS = [m for m in content.models_of() if m._meta.app_label != "harvest"]
# What the site derives or stamps itself; not facts a person or source states.
DERIVED = {
    "id",
    "created",
    "updated",
    "citation_count",
    "citations_read_on",
    "citations_source",
    "source_fields",
    "imported_values",
    "title_key",
    "search_text",
    # the ids the sources gave an author (OpenAlex, DBLP): what a harvest finds again, gone
    # with a rollback to a release that has no place for them
    "author_ids",
}


def facts():
    """Every stated fact: (model, row, field) → value."""
    found = {}
    for model in FACT_MODELS:
        for row in model.objects.values():
            for field, value in row.items():
                if field not in DERIVED:
                    found[(model.__name__, row["id"], field)] = value
    return found


def schema():
    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor)
        return {
            "migrations": set(MigrationRecorder(connection).applied_migrations()),
            "columns": {
                t: [c.name for c in connection.introspection.get_table_description(cursor, t)]
                for t in tables
            },
        }


class Year:
    """The facts as the last step left them, and the count each step checked."""

    def __init__(self):
        self.known, self.ledger = facts(), []

    def step(self, name, *, changed=(), new=(), fills=False):
        """The step changed exactly the facts `changed` names (and, when a source spoke,
        `fills`, only facts that were unknown) and added rows only of the models `new`
        names."""
        now = facts()
        moved = {key for key, value in self.known.items() if now.get(key, "gone") != value}
        if fills:
            overwritten = {key for key in moved if self.known[key] not in ("", None)}
            assert not overwritten - set(changed), f"{name}: a source overwrote a stated fact"
            moved = overwritten
        unexplained = sorted(moved ^ set(changed), key=str)[:10]
        assert moved == set(changed), f"{name}: facts changed that nobody changed: {unexplained}"
        assert sitemap_misses() == [], f"{name}: public pages the sitemap does not name"
        kept = search_index()
        search.rebuild()
        assert search_index() == kept, f"{name}: the search index is not what the lab holds"
        added = {key[0] for key in now.keys() - self.known.keys()}
        assert added <= set(new), f"{name}: rows appeared that nobody added: {added - set(new)}"
        self.ledger.append((name, len(self.known), len(now) - len(self.known)))
        self.known = now


def sitemap_misses():
    """The public pages, by each registered section's rule for what is public
    (lab/sections.py), that the sitemap (its index, then each page of each sitemap) does
    not name in both languages."""
    whole = whole_sitemap(Client())
    missed = []
    for section in sections.SECTIONS:
        if not (section.rows and section.detail_url):
            continue
        model = apps.get_model(section.rows.model)
        for row in getattr(model.objects, section.rows.public)():
            if not getattr(row, "has_page", True):  # a talk the list says all of
                continue
            for language in ("en", "zh-hans"):
                with translation.override(language):
                    address = f"http://testserver{row.get_absolute_url()}"
                if f"<loc>{address}</loc>" not in whole:
                    missed.append(address)
    return missed


def search_index():
    """The index as rows: each document with its terms and their weights."""
    terms = {}
    for key, term, weight in SearchTerm.objects.values_list("document__key", "term", "weight"):
        terms.setdefault(key, set()).add((term, weight))
    fields = ("key", "kind", "titles", "texts", "urls", "date", "shown_from", "boost")
    return {
        row["key"]: (row, frozenset(terms.get(row["key"], ())))
        for row in SearchDocument.objects.values(*fields)
    }


def searched(query):
    """The addresses the search's first page gives for `query`."""
    return [result.url for result in search.find(query).results]


def facts_of(row):
    """The fields `facts()` keeps of `row`."""
    return [f.attname for f in row._meta.concrete_fields if f.attname not in DERIVED]


def served(client, path):
    page = client.get(path)
    assert page.status_code == 200, path
    return page.content.decode()


def _said(*command):
    out = io.StringIO()
    call_command(*command, stdout=out)
    return out.getvalue()


def harvest(*args):
    out = io.StringIO()
    call_command("harvest", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def orcid_list(works):
    """An ORCID API v3.0 works answer listing `works` ({doi, title, year, type})."""
    return {
        "group": [
            {
                "work-summary": [
                    {
                        "put-code": number,
                        "title": {"title": {"value": work["title"]}},
                        "external-ids": {
                            "external-id": [
                                {"external-id-type": "doi", "external-id-value": work["doi"]}
                            ]
                        },
                        "type": work["type"],
                        "publication-date": {"year": {"value": work["year"]}},
                    }
                ]
            }
            for number, work in enumerate(works, start=1)
        ]
    }


def hugo_lab(site):
    """A small Wowchemy lab site: three people in content/authors (a PI, a PhD student, an
    alumna), two papers with their PDF and arXiv links, a news item."""
    files = {
        "config.toml": 'title = "River Lab"\n',
        "content/authors/mira-holt/_index.md": (
            "---\ntitle: Mira Holt\nrole: Professor of Hydrology\n"
            "user_groups: [Principal Investigators]\nemail: mira@river-lab.example\n"
            "social:\n  - icon: github\n    link: https://github.com/miraholt\n---\n"
            "Mira studies how rivers move their sediment.\n"
        ),
        "content/authors/tomas-reyes/_index.md": (
            "---\ntitle: Tomás Reyes\nuser_groups: [Grad Students]\n---\n"
        ),
        "content/authors/lena-park/_index.md": (
            "---\ntitle: Lena Park\nuser_groups: [Alumni]\n---\n"
        ),
        "content/publication/braided-rivers/index.md": (
            "---\ntitle: Sediment transport in braided rivers\ndate: 2023-05-01\n"
            "authors: [mira-holt, tomas-reyes, Ana Outsider]\npublication_types: ['2']\n"
            "publication: Water Resources Research\n"
            "url_pdf: https://river-lab.example/braided.pdf\n"
            "url_arxiv: https://arxiv.org/abs/2305.01234\n---\n"
        ),
        "content/publication/flood-model/index.md": (
            "---\ntitle: A flood model for small catchments\ndate: 2021-09-01\n"
            "authors: [lena-park, mira-holt]\npublication_types: ['1']\n"
            "publication: Proceedings of the Small Catchments Workshop\n"
            "url_pdf:\n  - https://river-lab.example/flood.pdf\n---\n"
        ),
        "content/news/grant/index.md": (
            "---\ntitle: The lab is funded to watch three rivers for five years\n"
            "date: 2024-03-01\n---\n"
        ),
    }
    for name, text in files.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, encoding="utf-8")
    return site


def candidates_by_title():
    titles = list(Candidate.objects.values_list("title", flat=True))
    assert len(titles) == len(set(titles)), "a work is a candidate twice"
    return set(titles)


def test_a_lab_year_loses_and_bends_no_fact(services, piwowar, settings, tmp_path):  # noqa: F811
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    admin = factories.UserFactory(is_staff=True, is_superuser=True, username="admin")
    visitor = Client()
    year = Year()

    # 0. the demo lab tried and taken away: no row of it stays (the lab settings' row, which
    # every site has, is back to its defaults)
    call_command("load_demo", stdout=io.StringIO())
    call_command("remove_demo", stdout=io.StringIO())
    year.step("the demo lab loaded and removed", new={"LabSettings"})

    # 1. a real lab site moves in; a second run changes nothing
    call_command("import_site", str(SITE), "--apply", stdout=io.StringIO())
    assert Person.objects.count() > 1 and Publication.objects.exists()
    now = facts()
    named = {k for k, v in year.known.items() if k[0] == "LabSettings" and now[k] != v}
    assert {key[2] for key in named} <= {"name_en", "tagline_en", "about_en", "contact_email"}
    year.step(
        "a real lab site moves in",
        # its people with their links, education, experience and news, its papers, its
        # pages in the menu, its courses, and its name in the lab's settings
        new={"Person", "Link", "Education", "Experience", "NewsItem"}
        | {"Publication", "Authorship", "Venue", "Page", "MenuItem"}
        | {"Course", "CourseTeacher", "Tag"},
        changed=named,
    )
    call_command("import_site", str(SITE), "--apply", stdout=io.StringIO())
    year.step("the same site imported again")

    # 1b. a Hugo lab's site moves in beside it: its people by their groups, its papers by
    # their authors' folders with their links, its news; the lab's own settings, named by
    # the first site, stay; a second run changes nothing
    river = hugo_lab(tmp_path / "river-lab")
    call_command("import_site", str(river), "--apply", stdout=io.StringIO())
    mira, tomas, lena = (
        Person.objects.get(name=name) for name in ("Mira Holt", "Tomás Reyes", "Lena Park")
    )
    assert (mira.role, tomas.role, lena.is_alumnus) == ("pi", "phd", True)
    assert mira.links.get().url == "https://github.com/miraholt"
    braided = Publication.objects.get(title="Sediment transport in braided rivers")
    assert (braided.pdf_url, braided.arxiv_id) == (
        "https://river-lab.example/braided.pdf",
        "2305.01234",
    )
    assert [(a.person, a.family_name) for a in braided.authorships.order_by("position")] == [
        (mira, "Holt"),
        (tomas, "Reyes"),
        (None, "Outsider"),
    ]
    flood = Publication.objects.get(title="A flood model for small catchments")
    assert flood.pdf_url == "https://river-lab.example/flood.pdf"  # written as a YAML list
    assert [a.person for a in flood.authorships.order_by("position")] == [lena, mira]
    assert NewsItem.objects.filter(text_en__contains="watch three rivers").exists()
    assert "Sediment transport in braided rivers" in served(visitor, mira.get_absolute_url())
    assert searched("braided rivers sediment")[0] == braided.get_absolute_url()
    year.step(
        "a Hugo lab's site moves in",
        new={"Person", "Link", "NewsItem", "Publication", "Authorship", "Venue"},
    )
    call_command("import_site", str(river), "--apply", stdout=io.StringIO())
    year.step("the Hugo site imported again")

    # 2. a real BibTeX file
    papers = Publication.objects.count()
    call_command("import_publications", str(BIBTEX), stdout=io.StringIO())
    assert Publication.objects.count() > papers
    # its keywords are the papers' tags
    year.step("a BibTeX file imported", new={"Publication", "Authorship", "Venue", "Tag"})

    # 3. a member edits a paper and their profile; no page built before is served after
    paper = Publication.objects.order_by("pk").first()
    before = served(visitor, paper.get_absolute_url()) + served(visitor, "/publications/")
    assert "A title the member corrected" not in before
    paper.title = "A title the member corrected"
    paper.save()
    piwowar.bio_en = "Studies how research data is shared."
    piwowar.save()
    assert "A title the member corrected" in served(visitor, paper.get_absolute_url())
    assert "A title the member corrected" in served(visitor, "/publications/")
    assert "how research data is shared" in served(visitor, piwowar.get_absolute_url())
    assert searched("title the member corrected")[0] == paper.get_absolute_url()
    year.step(
        "a member edits a paper and a profile",
        changed={("Publication", paper.pk, "title"), ("Person", piwowar.pk, "bio_en")},
    )

    # 3b. the lab writes its own pages: each adds its rows, and is on the pages at once
    menu_before = served(visitor, "/")
    assert "Join us" not in menu_before
    page = factories.PageFactory(title="Join us", slug="join-us")
    factories.MenuItemFactory(page=page, position=5)
    theme = factories.ThemeFactory(title="Research data sharing")
    theme.members.add(piwowar)
    theme.publications.add(paper)
    factories.OpeningFactory(title="PhD student: open data")
    factories.PostAuthorFactory(person=piwowar, post__title="What we learned this spring")
    assert "Join us" in served(visitor, "/")
    assert "Research data sharing" in served(visitor, "/themes/")
    assert "PhD student: open data" in served(visitor, "/openings/")
    assert "What we learned this spring" in served(visitor, piwowar.get_absolute_url())
    assert searched("research data sharing")[0] == theme.get_absolute_url()
    opening = Opening.objects.get(title_en="PhD student: open data")
    assert searched("PhD open data")[0] == opening.get_absolute_url()
    spring = Post.objects.get(title_en="What we learned this spring")
    assert searched("learned this spring")[0] == spring.get_absolute_url()
    year.step(
        "the lab writes a page, a research theme, an opening and a post",
        new={"Page", "MenuItem", "Theme", "Opening", "Post", "PostAuthor"},
    )

    # 3c. the opening is filled early and closed today: off the list today, its page says
    # so, its posting date and deadline as they were
    opening.closed_on = timezone.localdate()
    opening.full_clean()
    opening.save()
    assert "PhD student: open data" not in served(visitor, "/openings/")
    assert "Applications closed on" in served(visitor, opening.get_absolute_url())
    year.step("an opening closed early, today", changed={("Opening", opening.pk, "closed_on")})

    # 3d. a course given again the next year, its slug filled in from the title as the
    # admin does: each run at an address of its own; the lab's address in Chinese too
    runs = [
        factories.CourseFactory(title="Open science", slug="open-science", start=start)
        for start in (PartialDate.parse("2025-09"), PartialDate.parse("2026-09"))
    ]
    assert [run.get_absolute_url() for run in runs] == [
        "/teaching/open-science-2025/",
        "/teaching/open-science-2026/",
    ]
    for run in runs:
        served(visitor, run.get_absolute_url())
    lab = LabSettings.load()
    lab.address_zh_hans = "北京市海淀区示例路 1 号"
    lab.save()
    assert "北京市海淀区示例路 1 号" in served(visitor, "/zh-hans/")
    year.step(
        "a course given again the next year; the lab's address in Chinese",
        new={"Course"},
        changed={("LabSettings", lab.pk, "address_zh_hans")},
    )

    # 3e. media: two images uploaded, one featured on the post and shown in the page's text;
    # it is replaced, its deletion refused while used (the admin names where); the unused
    # one deleted, its files with it
    editor = Client()
    editor.force_login(admin)
    for name, size in [("cluster", (1200, 800)), ("unused", (600, 400))]:
        url = "/admin/media/mediaitem/add/"
        upload = SimpleUploadedFile(f"{name}.jpg", factories.photo_bytes(size))
        data = form_data(editor.get(url), image=upload, name=name, alt_en=f"The {name}")
        data["alt_zh_hans"] = f"{name} 的照片"
        assert editor.post(url, data).status_code == 302
    cluster, unused = MediaItem.objects.get(name="cluster"), MediaItem.objects.get(name="unused")
    post = Post.objects.get(title_en="What we learned this spring")
    post.featured_image = cluster
    post.save()
    page.body = "Our machines: ![Racks](media:cluster)"
    page.save()
    assert cluster.srcset("webp") in served(visitor, post.get_absolute_url())
    year.step(
        "two images uploaded, one featured on a post and shown in a page",
        new={"MediaItem"},
        changed={("Post", post.pk, "featured_image_id"), ("Page", page.pk, "body_en")},
    )
    url = f"/admin/media/mediaitem/{cluster.pk}/change/"
    old_files = [cluster.image.name, *cluster.rendition_names()]
    upload = SimpleUploadedFile("new.jpg", factories.photo_bytes((900, 600)))
    assert editor.post(url, form_data(editor.get(url), image=upload)).status_code == 302
    cluster.refresh_from_db()
    assert not any(default_storage.exists(name) for name in old_files)
    assert cluster.srcset("webp") in served(visitor, post.get_absolute_url())
    year.step(
        "the featured image replaced",
        changed={("MediaItem", cluster.pk, field) for field in ("image", "width", "height")},
    )
    delete = f"/admin/media/mediaitem/{cluster.pk}/delete/"
    refusal = editor.get(delete).content.decode()
    assert "What we learned this spring" in refusal and "Join us" in refusal
    editor.post(delete, {"post": "yes"})
    unused_files = [unused.image.name, *unused.rendition_names()]
    response = editor.post(f"/admin/media/mediaitem/{unused.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not any(default_storage.exists(name) for name in unused_files)
    year.step(
        "the used image kept, the unused one deleted",
        changed={("MediaItem", unused.pk, f) for f in facts_of(unused)},
    )

    # 4. week 1: two sources
    harvest("--source", "dblp", "--source", "arxiv")
    week1 = candidates_by_title()
    assert week1
    year.step("week 1: a harvest from DBLP and arXiv", fills=True)

    # 5. review: accept, reject, "not mine"
    with_doi = [c for c in Candidate.objects.order_by("title") if c.record.get("doi")]
    first = with_doi[0]
    second, third = Candidate.objects.exclude(pk=first.pk).order_by("title")[:2]
    accepted = review.accept(first, admin)
    review.reject(second, admin)
    review.disown(third, piwowar, admin)
    written = facts()
    year.step(
        "review: one accepted, one rejected, one disowned",
        new={"Publication", "Authorship", "Venue"},
    )
    assert ("Publication", accepted.pk, "title") in written

    # 6. week 2: every source, counts moved
    assert accepted.doi
    counts = [{"doi": f"https://doi.org/{accepted.doi}", "cited_by_count": 9}]
    services.counts_file.write_text(json.dumps({"meta": {"count": 1}, "results": counts}))
    harvest()
    week2 = candidates_by_title()
    assert week1 < week2  # the sources that did not answer in week 1 bring more
    for gone in (second, third):
        gone.refresh_from_db()
        assert gone.status == "rejected"
    year.step("week 2: every source, counts moved", new={"CitationReading"}, fills=True)

    # 6b. review: a preprint accepted, then its journal version: one paper, the version of
    # record, and no fact of any other paper moved
    preprint = Candidate.objects.get(status="open", version_of_candidate__status="open")
    journal = preprint.version_of_candidate
    papers = Publication.objects.count()
    joined = review.accept(preprint, admin)
    assert review.accept(journal, admin) == joined
    assert Publication.objects.count() == papers + 1
    joined.refresh_from_db()
    assert (joined.doi, joined.status) == (journal.record["doi"], "published")
    assert joined.source_fields["preprint_doi"] == preprint.record["doi"]
    year.step(
        "review: a preprint, then its journal version: one paper",
        new={"Publication", "Authorship", "Venue"},
    )

    # 7. week 3: the member's OpenAlex author was merged into another
    piwowar.openalex_id = "A5000000001"
    piwowar.save()
    services.routes["/openalex/authors/A5000000001"] = "openalex-author.json"
    harvest("--source", "openalex")
    assert candidates_by_title() == week2
    year.step(
        "week 3: a merged OpenAlex author followed",
        changed={("Person", piwowar.pk, "openalex_id")},
        fills=True,
    )

    # 8. a citation refresh
    refresh_counts(Publication.objects.exclude(doi=""), importing.HttpClient())
    accepted.refresh_from_db()
    assert accepted.citation_count == 9 and accepted.kind  # counted, its kind kept
    year.step("a citation refresh", fills=True)

    # 8b. a member whose name ends in a suffix, his ORCID on ORCID and OpenAlex only:
    # ORCID lists the work without co-authors, Crossref (asked by its DOI) spells him
    # another way, and the paper is his, his suffix a suffix
    carberry = factories.PersonFactory(
        name="Josiah Carberry Jr.", slug="josiah-carberry", orcid=suffixed.CARBERRY
    )
    doi = suffixed._crossref_work()["DOI"]
    listed = {"doi": doi, "title": suffixed.TITLE, "year": "2008", "type": "journal-article"}
    services.routes[f"/orcid/v3.0/{suffixed.CARBERRY}/works"] = (
        200,
        json.dumps(orcid_list([listed])).encode(),
    )
    by_orcid = f"author.orcid:https://orcid.org/{suffixed.CARBERRY}"
    works = services.routes["/openalex/works"]
    services.routes["/openalex/works"] = lambda q: (
        (200, json.dumps({"meta": {}, "results": [suffixed._openalex_work()]}).encode())
        if q.get("filter") == by_orcid
        else works(q)
    )
    services.routes[f"/crossref/works/{doi}"] = (
        200,
        json.dumps({"message": suffixed._crossref_work()}).encode(),
    )
    harvest("--person", "josiah-carberry", "--source", "orcid", "--source", "openalex")
    (found,) = Candidate.objects.filter(people=carberry)
    his = review.accept(found, admin)
    row = his.authorships.get(person=carberry)
    assert (row.family_name, row.suffix, row.orcid) == ("Carberry", "Jr.", suffixed.CARBERRY)
    assert "Psychoceramics" in served(visitor, carberry.get_absolute_url())
    year.step(
        "a member with a suffix and an ORCID on one source: his paper is his",
        new={"Person", "Publication", "Authorship", "Venue"},
        fills=True,
    )

    # 8c. the lab admin has posters harvested and theses no more; ORCID lists a poster and a
    # thesis of his: the poster comes in for review, the thesis is left out and counted, and
    # no fact but the setting moves
    editor = Client()
    editor.force_login(admin)
    form = "/admin/lab/labsettings/1/change/"
    kinds = [kind for kind in LabSettings.load().harvested_kinds if kind != "thesis"]
    kinds.append("poster")
    editor.post(form, form_data(editor.get(form), harvested_kinds=kinds))
    lab = LabSettings.objects.get()
    assert "poster" in lab.harvested_kinds and "thesis" not in lab.harvested_kinds
    more = [
        {**listed, "doi": "", "title": "Psychoceramics on a poster", "type": "conference-poster"},
        {**listed, "doi": "", "title": "A thesis on psychoceramics", "type": "dissertation"},
    ]
    services.routes[f"/orcid/v3.0/{suffixed.CARBERRY}/works"] = (
        200,
        json.dumps(orcid_list([listed, *more])).encode(),
    )
    said = harvest("--person", "josiah-carberry", "--source", "orcid")
    assert "left out by the lab's settings: 1 thesis\n" in said
    titles = candidates_by_title()
    assert "Psychoceramics on a poster" in titles and "A thesis on psychoceramics" not in titles
    year.step(
        "posters harvested and theses not: a poster comes in, a thesis is counted",
        changed={("LabSettings", lab.pk, "harvested_kinds")},
        fills=True,
    )

    # 8d. a member read from the three newer sources (Semantic Scholar by his author id,
    # Europe PMC and DataCite by his ORCID): their works come in for review, datasets and
    # software counted, not queued; a paper accepted is his by his Semantic Scholar id
    more_sources.serve_turing(services)
    turing = factories.PersonFactory(
        name="Alan Turing",
        slug="alan-turing",
        orcid=more_sources.ORCID,
        semantic_scholar_id="2262347",
    )
    said = harvest("--person", "alan-turing", *more_sources.SOURCES)
    assert "semantic_scholar: 60 fetched, 60 new, 0 matched, 0 error(s)" in said
    assert "europepmc: 23 fetched, 23 new" in said and "datacite: 4 fetched, 4 new" in said
    assert HarvestRun.objects.latest("queued").report["datacite"]["skipped"] == {
        "dataset": 5,
        "software": 2,
    }
    (cryptologia,) = Candidate.objects.filter(record__doi="10.1080/01611194.2019.1650846")
    his_paper = review.accept(cryptologia, admin)
    row = his_paper.authorships.get(person=turing)
    assert row.author_ids.get("semantic_scholar") == "2262347"
    year.step(
        "a member read from Semantic Scholar, Europe PMC and DataCite: his paper is his",
        new={"Person", "Publication", "Authorship", "Venue"},
        fills=True,
    )

    # 8e. the lab admin has the harvest accept, from half of its sources, the works whose
    # source names the member by his own identifier: ORCID lists a new paper of his, which
    # Crossref (asked by its DOI) completes; it is accepted by the run, the digest says so
    # with its undo link, and undoing it leaves the lab as it was before that harvest
    halves = list(harvesters())[::2]  # orcid, crossref, arxiv, … whatever the registry holds
    assert Source.ORCID in halves
    editor.post(form, form_data(editor.get(form), auto_accepted_sources=halves))
    lab.refresh_from_db()
    assert lab.auto_accepted_sources == halves
    year.step(
        "auto-accept chosen for half of the sources",
        changed={("LabSettings", lab.pk, "auto_accepted_sources")},
    )
    sequel = {**listed, "doi": "10.5555/87654321", "title": "Psychoceramics, cracked again"}
    services.routes[f"/orcid/v3.0/{suffixed.CARBERRY}/works"] = (
        200,
        json.dumps(orcid_list([listed, *more, sequel])).encode(),
    )
    services.routes[f"/crossref/works/{sequel['doi']}"] = (
        200,
        json.dumps(
            {
                "message": {
                    **suffixed._crossref_work(),
                    "DOI": sequel["doi"],
                    "title": [sequel["title"]],
                }
            }
        ).encode(),
    )
    before_auto = facts()
    said = harvest("--person", "josiah-carberry")
    assert "accepted without review: orcid 1" in said
    auto = Candidate.objects.get(title=sequel["title"])
    assert (auto.status, auto.auto_accepted_from) == ("accepted", "orcid")
    assert auto.publication.doi == sequel["doi"]
    assert auto.publication.authorships.filter(person=carberry).exists()
    assert Candidate.objects.get(title="Psychoceramics on a poster").status == "open"
    assert "Psychoceramics, cracked again" in served(visitor, carberry.get_absolute_url())
    year.step(
        "a harvest with auto-accept on for half of the sources",
        new={"Publication", "Authorship", "Venue"},
        fills=True,
    )
    carberry.email = "josiah@lab.example"
    carberry.save()
    call_command("send_harvest_digests", stdout=io.StringIO())
    (digest,) = [m for m in mail.outbox if m.to == ["josiah@lab.example"]]
    assert f"/admin/harvest/candidate/{auto.pk}/undo/" in digest.body
    mail.outbox.clear()
    year.step("his digest, with the undo link", changed={("Person", carberry.pk, "email")})
    assert editor.post(f"/admin/harvest/candidate/{auto.pk}/undo/").status_code == 302
    auto.refresh_from_db()
    assert auto.status == "open" and auto.publication is None
    after_undo = facts()
    gone = before_auto.keys() - after_undo.keys()
    assert {k: v for k, v in after_undo.items() if k in before_auto} == {
        k: v for k, v in before_auto.items() if k not in gone
    } | {("Person", carberry.pk, "email"): "josiah@lab.example"}
    assert after_undo.keys() <= before_auto.keys() | {("Person", carberry.pk, "email")}, (
        "undo left rows the harvest made"
    )
    assert "Psychoceramics, cracked again" not in served(visitor, carberry.get_absolute_url())
    year.step("the auto-accepted paper undone", changed=year.known.keys() - after_undo.keys())

    # 9. an invitation: the account and the mail, nothing else
    call_command("invite_member", piwowar.slug, "heather@lab.example", stdout=io.StringIO())
    assert len(mail.outbox) == 1
    now = facts()
    moved = {key for key, value in year.known.items() if now[key] != value}
    assert {key[:2] for key in moved} == {("Person", piwowar.pk)}, moved
    year.step("an invitation", changed=moved)

    # 9b. a member names a co-author on a post: no visitor sees them as its author until
    # they confirm it in the admin
    piwowar.refresh_from_db()  # the invitation gave them their account
    coauthor = Person.objects.published().exclude(pk=piwowar.pk).order_by("pk").first()
    coauthor.user = factories.UserFactory(username="coauthor", is_staff=True)
    coauthor.user.groups.add(Group.objects.get(name="Lab member"))
    coauthor.save()
    writer, named = Client(), Client()
    writer.force_login(piwowar.user)
    named.force_login(coauthor.user)
    form = writer.get("/admin/website/post/add/")
    fields = {"authors-0-position": "1", "authors-0-person": str(coauthor.pk)}
    data = form_data(
        form, title_en="Open data, a year on", slug="open-data-year", date="2026-06-01",
        body_en="What a year of sharing taught us.", is_published="on", **fields,
    )  # fmt: skip
    assert writer.post("/admin/website/post/add/", data).status_code == 302
    post = Post.objects.get(slug="open-data-year")
    byline = f'<a href="{coauthor.get_absolute_url()}">{coauthor.name}</a>'
    assert byline not in served(visitor, post.get_absolute_url())
    assert "Open data, a year on" not in served(visitor, coauthor.get_absolute_url())
    confirm = {"action": "confirm_authorship", "_selected_action": [post.pk]}
    assert named.post("/admin/website/post/", confirm).status_code == 302
    assert byline in served(visitor, post.get_absolute_url())
    assert "Open data, a year on" in served(visitor, coauthor.get_absolute_url())
    year.step(
        "a member names a co-author on a post, who confirms",
        changed={("Person", coauthor.pk, "user_id")},
        new={"Post", "PostAuthor"},
    )

    # 10. a backup, more work, the backup restored
    backup = io.BytesIO()
    archive.export_lab(backup)
    at_backup, facts_at_backup = _dump(), facts()
    harvest("--source", "dblp")
    factories.PersonFactory(slug="a-newcomer")
    paper.title = "A title changed after the backup"
    paper.save()
    archive.import_lab(io.BytesIO(backup.getvalue()), replace=True)
    assert _dump() == at_backup
    assert facts() == facts_at_backup
    assert "A title the member corrected" in served(visitor, paper.get_absolute_url())
    assert searched("title changed after the backup") == []
    assert searched("title the member corrected")[0] == paper.get_absolute_url()
    year.step("a backup, more work, the backup restored")

    # 11. a rollback the Chinese texts refuse changes nothing
    piwowar.refresh_from_db()
    piwowar.research_interests_zh_hans = "科研数据的共享"
    piwowar.save()
    year.step(
        "research interests in Chinese",
        changed={("Person", piwowar.pk, "research_interests_zh_hans")},
    )
    shape, rows = schema(), _dump()
    try:
        with pytest.raises(CommandError, match="delete the texts entered in zh_hans"):
            call_command("migrate", "people", "0014", verbosity=0)
        assert schema() == shape and _dump() == rows
    finally:
        call_command("migrate", verbosity=0)
    year.step("a refused rollback")

    # 12. a rollback that would drop the research themes' table is refused; an upgrade from
    # the previous release's schema
    try:
        with pytest.raises(
            CommandError, match=r"drop the tables holding .*research themes \(website.Theme\): 1"
        ):
            call_command("migrate", "publications", "0011", verbosity=0)
        assert schema() == shape and _dump() == rows
        call_command("migrate", "publications", "0012", verbosity=0)
    finally:
        call_command("migrate", verbosity=0)
    assert schema() == shape
    assert "A title the member corrected" in served(visitor, "/publications/export.bib")
    year.step("publications rolled back one release and upgraded again")

    # 13. the weekly harvest's worker was killed mid-run: the run stayed "running", and the
    # next harvest was refused for six hours; now it is failed, saying why, and the next runs
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    cut = HarvestRun.objects.create(
        trigger="schedule",
        status=HarvestRun.Status.RUNNING,
        worker=f"{socket.gethostname()}:{gone.pid}",
    )
    HarvestRun.objects.filter(pk=cut.pk).update(started=cut.queued)
    harvest("--source", "dblp")
    cut.refresh_from_db()
    assert cut.status == HarvestRun.Status.FAILED
    assert "stopped before the run finished" in cut.message
    assert HarvestRun.objects.exclude(pk=cut.pk).latest("queued").status == "done"
    year.step("a cut-off harvest released; the next one runs", fills=True)

    # 14. an archive from a release before the change log restores over the lab (it was
    # refused: no labsite_contentchange at its schema), and today's backup brings it back
    today, rows = io.BytesIO(), _dump()
    archive.export_lab(today)
    old = DATA / "labsite/data/past_releases/68f6567f714bc58f38609904a66d8b6833d4f422.zip"
    call_command("import_lab", str(old), "--replace", verbosity=0)
    assert schema() == shape
    assert Publication.objects.count() == 53 and Person.objects.filter(slug="teng-ma").exists()
    archive.import_lab(io.BytesIO(today.getvalue()), replace=True)
    assert _dump() == rows
    year.step("last year's archive restored, then today's backup")

    # 15. remove_demo on a lab that has none of it left changes nothing
    assert "nothing was removed" in _said("remove_demo")
    year.step("remove_demo on the lab's own year")

    print("\nThe lab's year, facts checked at each step (and rows added):")
    for name, checked, added in year.ledger:
        print(f"  {name:60} {checked:6,} (+{added:,})")
