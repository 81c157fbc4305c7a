"""A lab's year, scripted on a fresh lab: the place every feature adds its step.

The steps, in order (each checks the invariants below before the next begins):
 1. a real lab site moves in (al-folio, tests/labsite/data/corpus/alfolio-taislab), twice;
 2. a real BibTeX file is imported (tests/publications/data/bibtex/0x404-papers.bib);
 3. a member edits a paper's title and their own profile; the lab writes a page (in the
    menu), a research theme, an opening and a post;
    then two images are uploaded through the admin, one featured on the post and shown in
    the page's text, replaced, kept while used (the admin says where), the other deleted;
 4. week 1: a harvest over recorded answers, from two of the five sources;
 5. review: one work accepted, one rejected, one disowned ("not mine");
 6. week 2: every source answers, one more work appears, counts move; a preprint and then
    its journal version accepted become one paper;
 7. week 3: OpenAlex has merged the member's author id into another;
 8. a citation refresh;
 9. an invitation (mail after commit);
10. a backup, then more work (a harvest run, an edit, a newcomer), then the backup restored
    with --replace;
11. a rollback the Chinese texts refuse;
12. a rollback that would drop the research themes' table, refused; an upgrade: publications
    rolled back to the previous release's schema and forward again.

The invariants:
- no fact changed that no person and no source changed: every field of every person,
  paper, author row (in order, with roles and links), venue and talk is compared with the
  step before, and only the fields the step names may differ;
- a source fills only what a paper lacks: a harvest or a refresh never overwrites a fact;
- a rejected or disowned work never comes back, and no work is a candidate twice;
- every row of the archive comes back (a dump of the restored lab equals the backup's);
- an operation that is refused changes nothing: schema (applied migrations, tables and
  columns) and data compared;
- no page built before a save is served after it.

Run with `-s` to print the number of facts checked at each step."""

import io
import json
from pathlib import Path

import pytest
from django.core import mail
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder
from django.test import Client

from core import content
from harvest import review
from harvest.models import Candidate
from labsite import archive
from media.models import MediaItem
from people.models import Person
from publications import importing
from publications.importing.citations import refresh_counts
from publications.models import Publication
from tests import factories
from tests.admin_forms import form_data
from tests.harvest.conftest import piwowar, services  # noqa: F401
from tests.labsite.test_archive import _dump
from website.models import Post

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
        added = {key[0] for key in now.keys() - self.known.keys()}
        assert added <= set(new), f"{name}: rows appeared that nobody added: {added - set(new)}"
        self.ledger.append((name, len(self.known), len(now) - len(self.known)))
        self.known = now


def facts_of(row):
    """The fields `facts()` keeps of `row`."""
    return [f.attname for f in row._meta.concrete_fields if f.attname not in DERIVED]


def served(client, path):
    page = client.get(path)
    assert page.status_code == 200, path
    return page.content.decode()


def harvest(*args):
    out = io.StringIO()
    call_command("harvest", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def candidates_by_title():
    titles = list(Candidate.objects.values_list("title", flat=True))
    assert len(titles) == len(set(titles)), "a work is a candidate twice"
    return set(titles)


def test_a_lab_year_loses_and_bends_no_fact(services, piwowar, settings, tmp_path):  # noqa: F811
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    admin = factories.UserFactory(is_staff=True, is_superuser=True, username="admin")
    visitor = Client()
    year = Year()

    # 1. a real lab site moves in; a second run changes nothing
    call_command("import_site", str(SITE), "--apply", stdout=io.StringIO())
    assert Person.objects.count() > 1 and Publication.objects.exists()
    year.step(
        "a real lab site moves in",
        # its people with their links, education, experience and news, its papers, its
        # pages in the menu, its courses, and its name in the lab's settings
        new={"Person", "Link", "Education", "Experience", "NewsItem"}
        | {"Publication", "Authorship", "Venue", "Page", "MenuItem", "LabSettings"}
        | {"Course", "CourseTeacher", "Tag"},
    )
    call_command("import_site", str(SITE), "--apply", stdout=io.StringIO())
    year.step("the same site imported again")

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
    year.step(
        "the lab writes a page, a research theme, an opening and a post",
        new={"Page", "MenuItem", "Theme", "Opening", "Post", "PostAuthor"},
    )

    # 3c. media: two images uploaded, one featured on the post and shown in the page's text;
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

    # 9. an invitation: the account and the mail, nothing else
    call_command("invite_member", piwowar.slug, "heather@lab.example", stdout=io.StringIO())
    assert len(mail.outbox) == 1
    now = facts()
    moved = {key for key, value in year.known.items() if now[key] != value}
    assert {key[:2] for key in moved} == {("Person", piwowar.pk)}, moved
    year.step("an invitation", changed=moved)

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

    print("\nThe lab's year, facts checked at each step (and rows added):")
    for name, checked, added in year.ledger:
        print(f"  {name:60} {checked:6,} (+{added:,})")
