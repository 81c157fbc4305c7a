"""`export_lab` and `import_lab`: a lab survives the trip through one archive file, and a bad
archive changes nothing."""

import hashlib
import io
import json
import re
import shutil
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from PIL import ExifTags, Image

from core import content
from core.history import deleted_records, restore
from lab.models import forget_loaded_settings
from labsite import archive
from labsite.models import DemoRow
from media.models import MediaItem
from people.models import Person
from publications.exports import FORMATS
from publications.models import Publication
from talks.models import Speaker
from tests import factories
from tests.admin_forms import form_data
from tests.sitemaps import whole_sitemap
from website.models import HomeSection, Page

NOT_ARCHIVED = [
    "contenttypes",
    "auth.permission",
    "sessions",
    "axes",
    # what the site keeps for its own work (core/content.py)
    *(m._meta.label_lower for m in apps.get_models() if content.kind(m) == content.TRANSIENT),
]


def _dump():
    out = io.StringIO()
    call_command(
        "dumpdata",
        natural_foreign=True,
        natural_primary=True,
        exclude=NOT_ARCHIVED,
        indent=1,
        stdout=out,
    )
    return json.loads(out.getvalue())


def _public_pages():
    """Every page the sitemap lists, the feeds, robots.txt and every export, as visitors
    receive them."""
    client = Client()
    sitemap = whole_sitemap(client)
    paths = [re.sub(r"^https?://[^/]+", "", loc) for loc in re.findall(r"<loc>([^<]+)", sitemap)]
    paths += ["/sitemap.xml", "/robots.txt", "/news/feed/", "/publications/feed/", "/posts/feed/"]
    paths += [f"/publications/export.{fmt}" for fmt in FORMATS]
    for person in Person.objects.order_by("slug"):
        paths += [f"/people/{person.slug}/publications.{fmt}" for fmt in FORMATS]
    for paper in Publication.objects.published().order_by("slug"):
        paths += [f"/publications/{paper.slug}/export.{fmt}" for fmt in FORMATS]
    pages = {}
    for path in paths:
        forget_loaded_settings()
        response = client.get(path)
        assert response.status_code == 200, path
        pages[path] = b"".join(response) if response.streaming else response.content
    return pages


def _edited_demo_lab(admin_client):
    """The demo lab, then what a lab admin does to it: a photo uploaded, a title edited,
    a paper deleted and brought back from its history, an image put on the home's banner."""
    banner = HomeSection.objects.get(kind="banner")
    url = f"/admin/website/homesection/{banner.pk}/change/"
    data = form_data(
        admin_client.get(url), image=factories.photo_upload((800, 400)), image_alt="Servers"
    )
    assert admin_client.post(url, data).status_code == 302
    person = Person.objects.get(slug="teng-ma")
    url = f"/admin/people/person/{person.pk}/change/"
    data = form_data(
        admin_client.get(url),
        photo=factories.photo_upload((64, 80)),
        title="Associate Professor",
    )
    assert admin_client.post(url, data).status_code == 302
    paper = Publication.objects.order_by("pk").first()
    paper.delete()
    restore(deleted_records(Publication).first())
    for name, size in [("cluster", (1400, 900)), ("retreat", (800, 1000))]:  # the library
        url = "/admin/media/mediaitem/add/"
        upload = SimpleUploadedFile(f"{name}.jpg", factories.photo_bytes(size))
        data = form_data(admin_client.get(url), image=upload, name=name, alt_en=name)
        data["alt_zh_hans"] = f"{name} 的照片"
        assert admin_client.post(url, data).status_code == 302
    cluster = MediaItem.objects.get(name="cluster")
    featured = Publication.objects.published().order_by("pk").last()
    featured.featured_image = cluster
    featured.save()
    featured.tags.add(factories.TagFactory(name="memory systems", slug="memory"))
    gallery = factories.GalleryFactory(name="retreat")
    factories.GalleryItemFactory(gallery=gallery, item=MediaItem.objects.get(name="retreat"))
    person.refresh_from_db()
    assert person.photo and default_storage.exists(person.photo.name)
    return person


def _library_files():
    """{name: bytes} of the media library's files: its images and their renditions."""
    root = Path(settings.MEDIA_ROOT)
    return {
        str(path.relative_to(root)): path.read_bytes()
        for folder in ("library", "renditions")
        for path in (root / folder).rglob("*")
        if path.is_file()
    }


def _without_apps(manifest, members, *apps):
    """As an archive written before these apps existed: no migrations, models or rows."""
    for app in apps:
        manifest["migrations"].pop(app, None)
        manifest["models"] = [m for m in manifest["models"] if not m["model"].startswith(f"{app}.")]
        for name in [n for n in members if n.startswith(f"data/{app}.")]:
            del members[name]


def _fitted_to_its_schema(manifest, members):
    """As an archive written at its manifest's schema: every row keeps only the fields its
    model had there. A row rewritten by hand to an older schema otherwise keeps what later
    migrations added, in any app (a talk's featured image and tags), which that schema's
    models refuse."""
    executor = MigrationExecutor(connection)
    at = [(app, name) for app, name in manifest["migrations"].items()]
    models = executor.loader.project_state(at).apps
    for name in [n for n in members if n.startswith("data/")]:
        try:
            model = models.get_model(name.removeprefix("data/").removesuffix(".json"))
        except LookupError:
            continue  # not a content app's rows (accounts, groups)
        known = {field.name for field in model._meta.get_fields()}
        rows = json.loads(members[name])
        for row in rows:
            row["fields"] = {key: value for key, value in row["fields"].items() if key in known}
        members[name] = json.dumps(rows).encode()


def _empty_the_database():
    """As a new server's database and storage are: no rows, no uploads."""
    models = archive.archived_models(accounts=True, history=True)
    files = set().union(*(archive._file_names(model) for model in models))
    archive._delete_content(accounts=True)
    for name in files:
        default_storage.delete(name)
    shutil.rmtree(Path(settings.MEDIA_ROOT) / "renditions", ignore_errors=True)


@pytest.mark.django_db
def test_a_lab_comes_back_from_its_archive_row_for_row_and_page_for_page(demo, admin_client):
    for folder in ("library", "renditions"):  # what earlier tests of this worker left
        shutil.rmtree(Path(settings.MEDIA_ROOT) / folder, ignore_errors=True)
    person = _edited_demo_lab(admin_client)
    photo_name, photo = person.photo.name, person.photo.read()
    rows, pages, media = _dump(), _public_pages(), _library_files()
    written = io.BytesIO()
    archive.export_lab(written)
    _empty_the_database()
    assert not Publication.objects.exists() and not default_storage.exists(photo_name)
    assert _library_files() == {}

    archive.import_lab(io.BytesIO(written.getvalue()))

    assert _dump() == rows
    restored_media = _library_files()
    assert len(media) == 2 + 2 * (5 + 3)  # two images, WebP and JPEG renditions of each
    assert sorted(restored_media) == sorted(media)
    assert [name for name in media if restored_media[name] != media[name]] == []
    restored = _public_pages()
    assert restored.keys() == pages.keys()
    assert [path for path in pages if restored[path] != pages[path]] == []
    with default_storage.open(photo_name, "rb") as file:
        assert file.read() == photo
    assert default_storage.exists(HomeSection.objects.get(kind="banner").image.name)
    assert len(pages) > 200


@pytest.mark.django_db
def test_the_commands_write_and_restore_a_file_and_say_what_they_did(demo, tmp_path):
    path = tmp_path / "lab.zip"
    out = io.StringIO()

    call_command("export_lab", str(path), stdout=out)
    assert f"Wrote {path}:" in out.getvalue() and "rows of" in out.getvalue()
    papers = Publication.objects.count()
    _empty_the_database()
    out = io.StringIO()
    call_command("import_lab", str(path), "-v", "2", stdout=out)

    assert "publications.publication: 53 rows" in out.getvalue()
    assert "Restored" in out.getvalue()
    assert Publication.objects.count() == papers


@pytest.mark.django_db
def test_an_archive_without_accounts_keeps_content_and_drops_owners(demo, admin_client):
    _edited_demo_lab(admin_client)
    written = io.BytesIO()
    archive.export_lab(written, accounts=False, history=False)
    _empty_the_database()

    archive.import_lab(io.BytesIO(written.getvalue()))

    assert Publication.objects.count() == 53
    assert not Person.objects.exclude(user=None).exists()
    assert not Publication.history.exists()


def _rewritten(data, change, fit_checksums=True):
    """The archive `data` with `change(manifest, members)` applied, and its checksums made
    to fit (else left as they were)."""
    source = zipfile.ZipFile(io.BytesIO(data))
    manifest = json.loads(source.read("manifest.json"))
    members = {name: source.read(name) for name in source.namelist() if name != "manifest.json"}
    change(manifest, members)
    if fit_checksums:
        manifest["sha256"] = {name: hashlib.sha256(members[name]).hexdigest() for name in members}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for name, content in members.items():
            target.writestr(name, content)
        target.writestr("manifest.json", json.dumps(manifest))
    return out.getvalue()


def _bump_version(manifest, members):
    manifest["version"] = archive.VERSION + 1


def _newer_schema(manifest, members):
    manifest["migrations"]["publications"] = "0099_from_the_future"


def _row_breaking_a_rule(manifest, members):
    rows = json.loads(members["data/publications.authorship.json"])
    rows[0]["fields"]["publication"] = 999_999  # a paper the archive does not hold
    members["data/publications.authorship.json"] = json.dumps(rows).encode()


def _unknown_field(manifest, members):
    rows = json.loads(members["data/people.person.json"])
    rows[0]["fields"]["bogus"] = 1
    members["data/people.person.json"] = json.dumps(rows).encode()


def _rows_not_a_list(manifest, members):
    members["data/people.person.json"] = json.dumps({"rows": 1}).encode()


def _damaged(data):
    """One byte of the publications' rows changed inside the ZIP (its CRC and checksum no
    longer match)."""
    start = data.index(b"data/publications.publication.json")
    position = start + 400
    return data[:position] + bytes([data[position] ^ 0xFF]) + data[position + 1 :]


BAD_ARCHIVES = {
    "truncated": (lambda data: data[: len(data) // 2], "damaged or truncated"),
    "damaged": (_damaged, "This archive is damaged or truncated"),
    "not an archive": (lambda data: b"PK\x03\x04" + b"\0" * 200, "damaged or truncated"),
    "altered": (
        lambda data: _rewritten(data, _row_breaking_a_rule, fit_checksums=False),
        "data/publications.authorship.json in the archive is damaged (its checksum differs)",
    ),
    "a newer format": (lambda data: _rewritten(data, _bump_version), "format version 2"),
    "a newer schema": (
        lambda data: _rewritten(data, _newer_schema),
        "written by a newer labsite (its schema has publications.0099_from_the_future)",
    ),
    "a field this labsite does not know": (
        lambda data: _rewritten(data, _unknown_field),
        "The rows of people.person cannot be restored: Person has no field named 'bogus'.",
    ),
    "rows that are not rows": (
        lambda data: _rewritten(data, _rows_not_a_list),
        "The rows of people.person in the archive are not a list of rows.",
    ),
    "rows that do not fit": (
        lambda data: _rewritten(data, _row_breaking_a_rule),
        "do not fit together",
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("fault", BAD_ARCHIVES)
def test_a_bad_archive_is_refused_with_its_fault_and_nothing_is_written(demo, fault, tmp_path):
    written = io.BytesIO()
    archive.export_lab(written)
    _empty_the_database()
    damage, message = BAD_ARCHIVES[fault]
    path = tmp_path / "lab.zip"
    path.write_bytes(damage(written.getvalue()))

    with pytest.raises(CommandError, match=re.escape(message)) as refused:
        call_command("import_lab", str(path))

    assert str(refused.value).endswith("Nothing was restored.")
    assert not Publication.objects.exists() and not Person.objects.exists()
    assert not Publication.history.exists()


@pytest.mark.django_db
def test_a_database_with_content_is_kept_unless_replace_is_asked_for(demo):
    written = io.BytesIO()
    archive.export_lab(written)
    Publication.objects.filter(pk=Publication.objects.order_by("pk").first().pk).delete()
    papers = Publication.objects.count()

    with pytest.raises(archive.ArchiveError, match="This database is not empty"):
        archive.import_lab(io.BytesIO(written.getvalue()))
    assert Publication.objects.count() == papers

    archive.import_lab(io.BytesIO(written.getvalue()), replace=True)
    assert Publication.objects.count() == papers + 1


@pytest.mark.django_db(transaction=True)
def test_an_archive_from_an_older_schema_is_restored_and_migrated_forward(demo):
    written = io.BytesIO()
    archive.export_lab(written)
    linked = Speaker.objects.exclude(person=None).count()
    assert linked

    def as_written_before_printed_names(manifest, members):
        # Before talks 0004, a speaker linked to a member kept no printed name of their own.
        manifest["migrations"]["talks"] = "0003_web_links_only"
        _without_apps(manifest, members, "website")
        later = {"talks.projecttalk", "talks.historicalprojecttalk"}  # talks 0006
        manifest["models"] = [m for m in manifest["models"] if m["model"] not in later]
        for label in later:
            del members[f"data/{label}.json"]
        rows = json.loads(members["data/talks.speaker.json"])
        for row in rows:
            if row["fields"]["person"] is not None:
                row["fields"]["name"] = ""
        members["data/talks.speaker.json"] = json.dumps(rows).encode()
        # Before talks 0007, a title (or an award's name) was one column, in any script.
        for label, name in (("talk", "title"), ("award", "name")):
            for model in (label, f"historical{label}"):
                rows = json.loads(members[f"data/talks.{model}.json"])
                for row in rows:
                    fields = row["fields"]
                    chinese = fields.pop(f"{name}_zh_hans")
                    fields[name] = fields.pop(f"{name}_en") or chinese
                members[f"data/talks.{model}.json"] = json.dumps(rows).encode()
        _fitted_to_its_schema(manifest, members)

    older = _rewritten(written.getvalue(), as_written_before_printed_names)
    _empty_the_database()

    archive.import_lab(io.BytesIO(older))

    assert Speaker.objects.exclude(person=None).count() == linked
    assert not Speaker.objects.exclude(person=None).filter(name="").exists()
    executor = MigrationExecutor(connection)
    assert not executor.migration_plan(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db
def test_a_photo_replaced_since_does_not_stop_the_backup(demo, admin_client):
    person = Person.objects.get(slug="teng-ma")
    url = f"/admin/people/person/{person.pk}/change/"
    for _ in range(2):  # the first photo's file is deleted when the second replaces it
        data = form_data(admin_client.get(url), photo=factories.photo_upload())
        assert admin_client.post(url, data).status_code == 302
    person.refresh_from_db()
    written = io.BytesIO()

    manifest = archive.export_lab(written)

    assert manifest["media"] == sorted([person.photo.name, person.photo_thumb.name])


@pytest.mark.django_db
def test_a_restore_never_takes_rendered_html_from_the_archive(client, person):
    """An archive carrying HTML for a page to print as it is (the stored list entry of an
    earlier release) is refused whole: pages are rendered from rows alone."""
    factories.authored(person, ["Y Wang", "T Ma"], title="The real title")
    written = io.BytesIO()
    archive.export_lab(written)

    def plant(manifest, members):
        rows = json.loads(members["data/publications.publication.json"])
        rows[0]["fields"]["listing"] = {"en": {"list": "<li><script>alert(1)</script></li>"}}
        members["data/publications.publication.json"] = json.dumps(rows).encode()

    with pytest.raises(archive.ArchiveError, match=r"publications\.publication"):
        archive.import_lab(io.BytesIO(_rewritten(written.getvalue(), plant)), replace=True)

    page = client.get(f"/people/{person.slug}/").content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "The real title" in page


def _with_media(manifest, members, name, data, row_label=None):
    """Add the file `name` to the archive, named by the first row of `row_label` if given."""
    manifest["media"].append(name)
    members[f"media/{name}"] = data
    if row_label:
        file = next(e["file"] for e in manifest["models"] if e["model"] == row_label)
        rows = json.loads(members[file])
        rows[0]["fields"]["photo"] = name
        members[file] = json.dumps(rows).encode()


def _photo_swapped_for_html(manifest, members):
    file = next(e["file"] for e in manifest["models"] if e["model"] == "people.person")
    (name,) = [r["fields"]["photo"] for r in json.loads(members[file]) if r["fields"]["photo"]]
    members[f"media/{name}"] = b"<html><script>alert(1)</script></html>"


CRAFTED_MEDIA = {
    "an HTML file among the PDFs": (
        lambda m, f: _with_media(m, f, "publications/pdf/evil.html", b"<script>alert(1)</script>"),
        "“publications/pdf/evil.html” is named by none of its rows",
    ),
    "an .htaccess": (
        lambda m, f: _with_media(m, f, ".htaccess", b"AddType text/html .jpg"),
        "“.htaccess” lies outside the upload folders",
    ),
    "a name leaving the folder": (
        lambda m, f: _with_media(m, f, "../../labsite/settings.py", b"x", "people.person"),
        "“../../labsite/settings.py” lies outside the upload folders",
    ),
    "an absolute name": (
        lambda m, f: _with_media(m, f, "/etc/cron.d/x", b"x", "people.person"),
        "“/etc/cron.d/x” lies outside the upload folders",
    ),
    "a photo named into another folder": (
        lambda m, f: _with_media(m, f, "publications/pdf/me.png", b"x", "people.person"),
        "lies outside its upload folder (people/photos/)",
    ),
    "a photo that is HTML": (_photo_swapped_for_html, "This file is not an image"),
    "a photo past the upload limit": (
        lambda m, f: _with_media(m, f, "people/photos/x.jpg", b"\0" * 11_000_000, "people.person"),
        "is 11,000,000 bytes, more than an upload of its kind may be (10,485,760)",
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("fault", CRAFTED_MEDIA)
def test_a_crafted_file_in_an_archive_is_refused_and_nothing_is_written(demo, fault, tmp_path):
    person = Person.objects.get(slug="teng-ma")
    person.photo = factories.photo_upload()
    person.save()
    photo = person.photo.name
    written = io.BytesIO()
    archive.export_lab(written)
    _empty_the_database()
    change, message = CRAFTED_MEDIA[fault]
    path = tmp_path / "lab.zip"
    path.write_bytes(_rewritten(written.getvalue(), change))

    with pytest.raises(CommandError, match=re.escape(message)) as refused:
        call_command("import_lab", str(path))

    assert str(refused.value).endswith("Nothing was restored.")
    assert not Person.objects.exists() and not Publication.objects.exists()
    assert not default_storage.exists(".htaccess")
    assert not default_storage.exists("publications/pdf/evil.html")
    assert not default_storage.exists(photo)  # not even the archive's good files


@pytest.mark.django_db
def test_a_refused_restore_leaves_the_files_in_storage_byte_for_byte(demo, tmp_path):
    person = Person.objects.get(slug="teng-ma")
    person.photo = factories.photo_upload(color="navy")
    person.save()
    name = person.photo.name
    before = default_storage.open(name, "rb").read()
    written = io.BytesIO()
    archive.export_lab(written)

    def other_photo_and_a_broken_row(manifest, members):
        members[f"media/{name}"] = factories.photo_upload(color="red").read()
        _row_breaking_a_rule(manifest, members)

    path = tmp_path / "lab.zip"
    path.write_bytes(_rewritten(written.getvalue(), other_photo_and_a_broken_row))

    with pytest.raises(CommandError, match=re.escape("Nothing was restored.")):
        call_command("import_lab", str(path), "--replace")

    assert default_storage.open(name, "rb").read() == before
    assert Person.objects.get(slug="teng-ma").photo.name == name


@pytest.mark.django_db
def test_a_member_that_unpacks_past_the_bound_is_refused_before_it_is_read(
    demo, tmp_path, settings
):
    settings.ARCHIVE_MAX_MEMBER_BYTES = 10 * 1024 * 1024
    written = io.BytesIO()
    archive.export_lab(written)
    _empty_the_database()

    def a_bomb(manifest, members):  # 50 MB of zeros: about 50 KB in the ZIP
        members["data/people.person.json"] = b"\0" * (50 * 1024 * 1024)

    data = _rewritten(written.getvalue(), a_bomb)
    path = tmp_path / "lab.zip"
    path.write_bytes(data)

    with pytest.raises(CommandError, match="unpacks to 52,428,800 bytes") as refused:
        call_command("import_lab", str(path))

    assert len(data) < 1024 * 1024
    assert str(refused.value).endswith("Nothing was restored.")
    assert not Person.objects.exists()


def _photo_and_archive(color="navy"):
    person = Person.objects.get(slug="teng-ma")
    person.photo = factories.photo_upload((300, 300), color=color)
    person.save()
    written = io.BytesIO()
    archive.export_lab(written)
    return person.photo.name, written.getvalue()


def _media_files():
    """{name: size} of every uploaded file and staged file under the media folder."""
    root = Path(settings.MEDIA_ROOT)
    return {
        path.relative_to(root).as_posix(): path.stat().st_size
        for folder in ("people", "publications", "talks", "lab", archive.STAGING)
        for path in (root / folder).rglob("*")
        if path.is_file()
    }


@pytest.mark.django_db
def test_a_restored_photo_is_encoded_afresh_as_an_upload_is(demo):
    """A photo in an archive comes back as an upload would be stored: decoded and encoded
    again, so nothing the archive's bytes carried besides the pixels (here a place name in
    its EXIF) reaches the site."""
    name, data = _photo_and_archive()
    _empty_the_database()
    exif = Image.Exif()
    exif[ExifTags.Base.ImageDescription] = "Taken at 12 Elm Street"

    def with_metadata(manifest, members):
        buffer = io.BytesIO()
        Image.new("RGB", (192, 192), "navy").save(buffer, "JPEG", exif=exif.tobytes())
        members[f"media/{name}"] = buffer.getvalue()

    archive.import_lab(io.BytesIO(_rewritten(data, with_metadata)))

    with default_storage.open(name, "rb") as file:
        stored = file.read()
    assert b"Elm Street" not in stored
    restored = Image.open(io.BytesIO(stored))
    assert restored.size == (192, 192) and not restored.getexif()


@pytest.mark.django_db
def test_a_restore_that_runs_out_of_disk_restores_nothing_and_leaves_no_files(
    demo, tmp_path, full_disk
):
    _, data = _photo_and_archive()
    _empty_the_database()
    path = tmp_path / "lab.zip"
    path.write_bytes(data)
    before = _media_files()
    full_disk()

    with pytest.raises(CommandError, match="No space left on device") as refused:
        call_command("import_lab", str(path))

    assert str(refused.value).endswith("Nothing was restored.")
    assert not Person.objects.exists() and not Publication.objects.exists()
    assert _media_files() == before  # no file cut short, nothing staged left behind


@pytest.mark.django_db
def test_a_restore_moves_its_files_into_place_only_once_its_rows_are_in(demo, monkeypatch):
    name, data = _photo_and_archive(color="red")
    _empty_the_database()
    before = _media_files()
    written = Path(settings.MEDIA_ROOT) / name
    seen = {}
    real_check = connection.check_constraints

    def check_rows(table_names=None):  # the last step before the rows commit
        seen["photo in place while the rows were written"] = written.exists()
        seen["files staged"] = _media_files() != before
        real_check(table_names=table_names)

    monkeypatch.setattr(connection, "check_constraints", check_rows)

    archive.import_lab(io.BytesIO(data))

    assert seen == {"photo in place while the rows were written": False, "files staged": True}
    assert written.exists() and Person.objects.get(slug="teng-ma").photo.name == name
    assert not (Path(settings.MEDIA_ROOT) / archive.STAGING).exists()


@pytest.mark.django_db
def test_an_archive_is_written_and_read_a_row_at_a_time(demo, monkeypatch):
    """Rows go into the archive one per line and come out in batches: however large the
    lab, a restore never holds a whole model's rows (here, batches of 7 rows)."""
    written = io.BytesIO()
    archive.export_lab(written)
    papers = Publication.objects.count()
    with zipfile.ZipFile(io.BytesIO(written.getvalue())) as source:
        lines = source.read("data/publications.publication.json").decode().splitlines()
    assert len(lines) == papers + 2  # "[", a row per line, "]"
    assert all(
        json.loads(line.rstrip(","))["model"] == "publications.publication" for line in lines[1:-1]
    )
    _empty_the_database()
    batches = []
    monkeypatch.setattr(archive, "_BATCH", 7)
    real_insert = archive.insert_rows
    monkeypatch.setattr(
        archive,
        "insert_rows",
        lambda model, rows, **kw: (batches.append(len(rows)), real_insert(model, rows, **kw)),
    )

    archive.import_lab(io.BytesIO(written.getvalue()))

    assert Publication.objects.count() == papers
    assert max(batches) == 7


@pytest.mark.django_db(transaction=True)
def test_an_older_schema_archive_with_a_bad_row_is_refused_and_the_schema_comes_back(
    demo, tmp_path
):
    written = io.BytesIO()
    archive.export_lab(written)

    def older_with_a_bad_row(manifest, members):
        manifest["migrations"]["talks"] = "0003_web_links_only"
        _without_apps(manifest, members, "website")
        later = {"talks.projecttalk", "talks.historicalprojecttalk"}
        manifest["models"] = [m for m in manifest["models"] if m["model"] not in later]
        for label in later:
            del members[f"data/{label}.json"]
        rows = json.loads(members["data/talks.speaker.json"])
        rows[0]["fields"]["bogus"] = 1
        members["data/talks.speaker.json"] = json.dumps(rows).encode()

    path = tmp_path / "lab.zip"
    path.write_bytes(_rewritten(written.getvalue(), older_with_a_bad_row))
    _empty_the_database()

    with pytest.raises(CommandError, match="cannot be restored") as refused:
        call_command("import_lab", str(path))

    assert str(refused.value).endswith("Nothing was restored.")
    assert "\n" not in str(refused.value)  # one line, no traceback
    assert not Publication.objects.exists() and not Person.objects.exists()
    executor = MigrationExecutor(connection)
    assert not executor.migration_plan(executor.loader.graph.leaf_nodes())  # back to current


@pytest.mark.django_db(transaction=True)
def test_a_refused_older_archive_leaves_the_live_lab_as_it_was(demo, tmp_path):
    """An older archive is restored at its own schema: migrating back dropped the columns
    later migrations added (members' harvest identities, people 0017) on the live database,
    and a refusal then brought them back empty."""
    teng = Person.objects.get(slug="teng-ma")
    teng.openalex_id = "A5023888391"
    teng.save()
    written = io.BytesIO()
    archive.export_lab(written)

    def before_harvest_identities_with_a_bad_row(manifest, members):
        manifest["migrations"]["people"] = "0016_invitation_sent"
        _without_apps(manifest, members, "harvest", "website")
        for model in ("person", "historicalperson"):
            rows = json.loads(members[f"data/people.{model}.json"])
            for row in rows:
                for field in ("openalex_id", "dblp_pid", "arxiv_author_id", "has_left"):
                    row["fields"].pop(field, None)
            members[f"data/people.{model}.json"] = json.dumps(rows).encode()
        rows = json.loads(members["data/talks.speaker.json"])
        rows[0]["fields"]["bogus"] = 1
        members["data/talks.speaker.json"] = json.dumps(rows).encode()

    path = tmp_path / "lab.zip"
    path.write_bytes(_rewritten(written.getvalue(), before_harvest_identities_with_a_bad_row))
    before, shape = _dump(), _columns()

    with pytest.raises(CommandError, match="cannot be restored"):
        call_command("import_lab", str(path), "--replace")

    assert _columns() == shape
    assert Person.objects.get(slug="teng-ma").openalex_id == "A5023888391"
    assert _dump() == before


def _columns():
    with connection.cursor() as cursor:
        return {
            table: [c.name for c in connection.introspection.get_table_description(cursor, table)]
            for table in connection.introspection.table_names(cursor)
        }


@pytest.mark.django_db
def test_last_nights_backup_restores_over_what_was_added_since(demo):
    """A restore replaces every row the archive has a say on, whatever was added after the
    backup: a harvest run and candidate naming a member, an education row with an advisor
    (a many-to-many link), a preview; it failed with an IntegrityError before."""
    from harvest.models import Candidate, HarvestRun

    written = io.BytesIO()
    archive.export_lab(written)
    before = _dump()
    teng, feng = Person.objects.get(slug="teng-ma"), Person.objects.get(slug="feng-ren")
    newcomer = factories.PersonFactory(slug="new-student")
    HarvestRun.objects.create(person=newcomer)
    candidate = Candidate.objects.create(title="A work found since", record={})
    candidate.people.add(newcomer, teng)
    factories.EducationFactory(person=newcomer).advisors.add(feng, newcomer)

    archive.import_lab(io.BytesIO(written.getvalue()), replace=True)

    assert _dump() == before
    assert not HarvestRun.objects.exists() and not Person.objects.filter(slug="new-student")


@pytest.mark.django_db
def test_a_restore_keeps_every_time_to_the_microsecond(demo, admin_user):
    """A backup wrote times to the millisecond: every timestamp came back moved, and one
    within a millisecond of its second came back as another value in the dump (a change a
    lab admin made at 12:12:55.000500 read 12:12:55 after the restore)."""
    from django.contrib.admin.models import CHANGE, LogEntry

    person = Person.objects.get(slug="teng-ma")
    entry = LogEntry.objects.log_actions(admin_user.pk, [person], CHANGE, single_object=True)
    at = datetime(2026, 12, 5, 12, 12, 55, 500, tzinfo=UTC)
    LogEntry.objects.filter(pk=entry.pk).update(action_time=at)
    paper = Publication.objects.first()
    Publication.objects.filter(pk=paper.pk).update(updated=at.replace(microsecond=123456))
    written = io.BytesIO()
    archive.export_lab(written)
    before = _dump()

    archive.import_lab(io.BytesIO(written.getvalue()), replace=True)

    assert _dump() == before
    assert LogEntry.objects.get(object_id=str(person.pk)).action_time == at
    assert Publication.objects.get(pk=paper.pk).updated == at.replace(microsecond=123456)


def _content_rows():
    """Every content row but the lab settings, as (model label, pk)."""
    return {
        (model._meta.label, pk)
        for model in content.models_of()
        if model._meta.label != "lab.LabSettings"
        for pk in model.objects.values_list("pk", flat=True)
    }


@pytest.mark.django_db
def test_a_demo_lab_restored_from_its_archive_can_still_be_removed(demo, tmp_path):
    """Before, the archive left out which rows the demo made: a demo lab restored on a new
    server could not be removed."""
    page = factories.PageFactory(title="Join our lab", slug="join-our-lab")
    paper = factories.PublicationFactory(title="Our own first paper")
    path = tmp_path / "lab.zip"
    call_command("export_lab", str(path), verbosity=0)
    _empty_the_database()
    DemoRow.objects.all().delete()  # a new server's database: no record of any demo

    call_command("import_lab", str(path), verbosity=0)
    call_command("remove_demo", stdout=io.StringIO())

    assert _content_rows() == {
        ("website.Page", page.pk),
        ("publications.Publication", paper.pk),
        ("publications.Venue", paper.venue_id),  # the factory's, added with the paper
    }


@pytest.mark.django_db
def test_a_restore_over_a_demo_lab_forgets_which_rows_the_demo_made():
    """The record names rows by id: kept over a restored lab, remove_demo would take the
    lab's own rows that came back under the demo's ids."""
    page = factories.PageFactory(title="Join our lab", slug="join-our-lab")
    written = io.BytesIO()
    archive.export_lab(written)  # the real lab's backup, made without the demo
    DemoRow.objects.create(  # as the demo lab loaded on this server before left it
        content_type=ContentType.objects.get_for_model(Page), object_id=page.pk
    )

    archive.import_lab(io.BytesIO(written.getvalue()), replace=True)
    call_command("remove_demo", stdout=io.StringIO())

    assert Page.objects.filter(pk=page.pk).exists()


@pytest.mark.django_db
def test_a_backup_without_history_keeps_a_demo_page_an_admin_edited_from_remove_demo(
    demo, admin_client
):
    """Without the history that names who edited a row, the restored record would take the
    admin's edit of a demo page with the demo."""
    join_us = Page.objects.get(slug="join-us", parent=None)
    url = f"/admin/website/page/{join_us.pk}/change/"
    response = admin_client.post(url, form_data(admin_client.get(url), title="Join the Ren lab"))
    assert response.status_code == 302
    written = io.BytesIO()
    archive.export_lab(written, history=False)
    _empty_the_database()
    DemoRow.objects.all().delete()

    archive.import_lab(io.BytesIO(written.getvalue()))
    call_command("remove_demo", stdout=io.StringIO())

    assert list(Page.objects.values_list("title_en", flat=True)) == ["Join the Ren lab"]
    assert not Person.objects.filter(slug="teng-ma").exists()
