"""A whole lab in one file, and back: the format behind `export_lab` and `import_lab`.

An archive is a ZIP file (documented in README, "Backups"):

- `manifest.json`: `{"format": "labsite-archive", "version": 1, "created": …, "migrations":
  {app: last applied migration}, "accounts": bool, "history": bool, "models": [{"model":
  "people.person", "file": "data/people.person.json", "rows": 12}, …], "media": [names],
  "sha256": {member: digest}}`. The models are listed in the order they are restored.
- `data/<app>.<model>.json`: the rows of one model as Django's serializer writes them, ids
  kept; references to groups, permissions and content types by natural key (their ids
  differ from one database to another), and groups themselves by name.
- `media/<name>`: every uploaded file a row names (photos, logos, PDFs).

Both ways stream: rows go 2,000 at a time and files block by block, so memory does not
grow with the lab (each data file is a JSON list with one row per line). Restoring checks
the manifest, the sizes and every checksum before it writes anything; then checks each file
as an upload of its kind and stages it; writes every row in one transaction; and moves the
staged files to their names only once the rows commit. An archive written by an older
labsite is restored at its own schema, then migrated forward.
"""

import hashlib
import io
import json
import re
import secrets
import shutil
import sqlite3
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime, time
from itertools import islice, zip_longest
from pathlib import Path, PurePosixPath
from typing import IO, Any

from django.apps import apps as global_apps
from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.contrib.auth.management import create_permissions
from django.contrib.auth.models import Group, User
from django.contrib.contenttypes.management import create_contenttypes
from django.contrib.contenttypes.models import ContentType
from django.core import serializers
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.core.management.color import no_style
from django.core.serializers import python as python_serializer
from django.core.serializers.base import DeserializationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, models, transaction
from django.db.migrations.exceptions import InvalidMigrationPlan, NodeNotFoundError
from django.db.migrations.executor import MigrationExecutor
from simple_history.models import HistoricalChanges

from core import changes, content, images, storage
from core.bulk import insert_rows
from core.documents import MAX_PDF_BYTES, check_pdf
from labsite import demo_rows
from labsite.models import DemoRow

FORMAT = "labsite-archive"
VERSION = 1
# Rows that refer to these refer by natural key; groups are matched by name on restore.
# (The demo's record names its rows' content types, whose ids differ between databases.)
BY_NATURAL_KEY = {"auth.group", "auth.user", "admin.logentry", "labsite.demorow"}
# A site makes its settings row on its first page: the archive's replaces it. (Archives
# written before lab 0001 name the settings under people.)
_BLOCK = 1 << 20  # what is read or written at a time
_BATCH = 2000  # rows serialized or restored at a time
# Restored files wait here (in the media storage) until the rows naming them are in.
STAGING = "restore-staging"
SINGLETONS = {
    f"{app}.{model}"
    for app in ("lab", "people")
    for model in ("labsettings", "historicallabsettings")
}


class ArchiveError(Exception):
    """The archive cannot be written or restored; the message says why, for the operator."""


def _silent(message: str) -> None:
    """The default `say` of the functions below: their progress is printed nowhere."""


def archived_models(*, accounts: bool, history: bool) -> list[type[models.Model]]:
    """The models an archive holds, in the order they are restored."""
    chosen: list[type[models.Model]] = [Group, User] if accounts else []
    chosen += content.models_of(
        (content.CONTENT, content.HISTORY) if history else (content.CONTENT,)
    )
    if history and accounts:
        chosen.append(LogEntry)  # the admin's "recent actions", which names accounts
    # which rows the demo lab made (labsite/demo_rows.py), so that a restored demo can still
    # be removed; archives written before it have none, and their labs none to remove
    chosen.append(DemoRow)
    return chosen


def applied_migrations() -> dict[str, str]:
    """{app: its last migration} as the database has them applied."""
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    applied = executor.loader.applied_migrations
    return {app: name for app, name in leaves if (app, name) in applied}


# Writing


def export_lab(
    target: io.BufferedIOBase | str,
    *,
    accounts: bool = True,
    history: bool = True,
    say: Callable[[str], None] = _silent,
) -> dict[str, Any]:
    """Write the lab to `target` (a path or a binary file), saying how far it has come
    through `say`. Returns the manifest. Rows are read 2,000 at a time and files copied in
    blocks, each straight into the archive: memory does not grow with the lab."""
    chosen = archived_models(accounts=accounts, history=history)
    manifest: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "migrations": applied_migrations(),
        "accounts": accounts,
        "history": history,
        "models": [],
        "media": [],
        "sha256": {},
    }
    media: set[str] = set()
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for model in chosen:
            label = model._meta.label_lower
            media.update(_file_names(model))
            member, count = f"data/{label}.json", 0
            with _member(archive, member, manifest["sha256"]) as out:
                # A JSON list with one row per line: any JSON reader reads it whole, and a
                # restore reads it row by row.
                for row in _serialized_rows(model, accounts=accounts, history=history):
                    out.write(b",\n" if count else b"[\n")
                    out.write(json.dumps(row, cls=_ExactEncoder, ensure_ascii=False).encode())
                    count += 1
                out.write(b"\n]\n" if count else b"[]\n")
            manifest["models"].append({"model": label, "file": member, "rows": count})
            say(f"{label}: {count:,} rows")
        for name in sorted(media):
            if not default_storage.exists(name):
                raise ArchiveError(f"The file “{name}” that a row names is missing from storage.")
            with (
                default_storage.open(name, "rb") as file,
                _member(archive, f"media/{name}", manifest["sha256"]) as out,
            ):
                shutil.copyfileobj(file, out, _BLOCK)
            manifest["media"].append(name)
        say(f"media: {len(manifest['media']):,} files")
        archive.writestr("manifest.json", json.dumps(manifest, indent=1))
    return manifest


class _ExactEncoder(DjangoJSONEncoder):
    """Django's JSON, but times to the microsecond: Django's encoder cuts them to the
    millisecond, so a restore moved every timestamp and one under a millisecond past the
    second came back a different value."""

    def default(self, o: Any) -> Any:
        if isinstance(o, (datetime, time)):
            text = o.isoformat()
            return text[:-6] + "Z" if text.endswith("+00:00") else text
        return super().default(o)


class _Hashing:
    """A writable file that passes what it is given on, keeping its SHA-256."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw, self.digest = raw, hashlib.sha256()

    def write(self, data: bytes) -> int:
        self.digest.update(data)
        return self.raw.write(data)


@contextmanager
def _member(archive: zipfile.ZipFile, name: str, digests: dict[str, str]) -> Iterator[_Hashing]:
    """The archive's member `name`, written as a stream; its checksum goes into `digests`."""
    with archive.open(name, "w", force_zip64=True) as raw:
        out = _Hashing(raw)
        yield out
    digests[name] = out.digest.hexdigest()


def _serialized_rows(
    model: type[models.Model], *, accounts: bool, history: bool
) -> Iterator[dict[str, Any]]:
    natural = model._meta.label_lower in BY_NATURAL_KEY
    # Without accounts, rows keep their content, not who they belonged to or were by.
    account_fields = [
        f.name
        for f in model._meta.concrete_fields
        if not accounts and f.is_relation and f.related_model is User
    ]
    rows = model._default_manager.all()
    if model is DemoRow and not history:
        # without the history that shows which demo rows someone edited, a restored lab's
        # remove_demo could not keep them: they leave the record instead
        rows = demo_rows.record_of_unedited_rows()
    query = rows.order_by("pk").iterator(chunk_size=_BATCH)
    while chunk := list(islice(query, _BATCH)):
        for row in serializers.serialize(
            "python",
            chunk,
            use_natural_foreign_keys=natural,
            use_natural_primary_keys=model is Group,
        ):
            row["fields"].update(dict.fromkeys(account_fields))
            yield row


def _file_names(model: type[models.Model]) -> set[str]:
    names: set[str] = set()
    for field in model._meta.concrete_fields:
        if isinstance(field, models.FileField):
            names.update(
                model._default_manager.exclude(**{field.name: ""})
                .exclude(**{f"{field.name}__isnull": True})
                .values_list(field.name, flat=True)
            )
    return names


# Reading


class Archive:
    """An open archive whose manifest and checksums have been checked: its rows are read
    model by model, a row at a time, and its files one at a time."""

    def __init__(self, archive: zipfile.ZipFile) -> None:
        self.zip = archive
        self.manifest = _manifest(archive)
        _check_sizes(archive, self.manifest)
        digests = self.manifest["sha256"]
        self.files: dict[str, str] = {}  # model label: its member
        for entry in self.manifest["models"]:
            if not (
                isinstance(entry, dict)
                and isinstance(entry.get("model"), str)
                and entry.get("file") in digests
            ):
                raise ArchiveError("The archive's manifest names rows it does not hold.")
            self.files[entry["model"]] = entry["file"]
        media = self.manifest["media"]
        for name in media if isinstance(media, list) else [None]:
            if not isinstance(name, str) or f"media/{name}" not in digests:
                raise ArchiveError(
                    f"The archive lists a file it does not hold ({str(name)[:200]})."
                )
        self.media: list[str] = media
        for member, digest in digests.items():
            checksum = hashlib.sha256()
            with _reading(), archive.open(member) as data:
                while block := data.read(_BLOCK):
                    checksum.update(block)
            if checksum.hexdigest() != digest:
                raise ArchiveError(f"{member} in the archive is damaged (its checksum differs).")

    def rows(self, label: str) -> Iterator[dict[str, Any]]:
        """The rows of the model `label`, one at a time."""
        member = self.files[label]
        with _reading(), self.zip.open(member) as data:
            text = io.TextIOWrapper(data, encoding="utf-8")
            try:
                for row in _json_list(text):
                    if not isinstance(row, dict):
                        raise _NotAList
                    yield row
            except _NotAList:
                raise ArchiveError(
                    f"The rows of {label} in the archive are not a list of rows."
                ) from None
            except ValueError:  # not JSON, or not UTF-8
                raise ArchiveError(f"{member} in the archive is not readable JSON.") from None

    def read(self, name: str) -> bytes:
        """The bytes of the file `name` (a file is bounded by ARCHIVE_MAX_MEMBER_BYTES)."""
        with _reading():
            return self.zip.read(f"media/{name}")


@contextmanager
def open_archive(source: io.BufferedIOBase | str) -> Iterator[Archive]:
    """Open and check an archive: ArchiveError, naming the fault, when it is not a labsite
    archive, was written by a newer labsite, or is truncated or altered."""
    with _reading():
        archive = zipfile.ZipFile(source)
    with archive:
        yield Archive(archive)


@contextmanager
def _reading() -> Iterator[None]:
    try:
        yield
    except (zipfile.BadZipFile, zlib.error, EOFError) as error:
        raise ArchiveError(f"This archive is damaged or truncated ({error}).") from None
    except (OSError, KeyError) as error:
        if isinstance(error, KeyError) or not isinstance(error.errno, int):
            raise ArchiveError(f"This archive is damaged or truncated ({error}).") from None
        raise  # the disk, not the archive


class _NotAList(ValueError):
    pass


_SPACE = re.compile(r"[ \t\n\r]*")


def _json_list(text: IO[str]) -> Iterator[Any]:
    """The items of the JSON list `text` holds, decoded one at a time as it is read
    (`_NotAList` when it holds something else; ValueError when it is not JSON)."""
    decoder = json.JSONDecoder()
    buffer, at, ended = "", 0, False

    def read_more() -> None:
        nonlocal buffer, at, ended
        block = text.read(_BLOCK)
        buffer, at, ended = buffer[at:] + block, 0, not block

    def next_char() -> str:
        nonlocal at
        while True:
            match = _SPACE.match(buffer, at)
            at = match.end() if match else at
            if at < len(buffer) or ended:
                return buffer[at : at + 1]
            read_more()

    if next_char() != "[":
        raise _NotAList
    at += 1
    if next_char() == "]":
        at += 1
    else:
        while True:
            next_char()  # past the spaces before the item
            while True:
                try:
                    item, at = decoder.raw_decode(buffer, at)
                    break
                except json.JSONDecodeError:
                    if ended:
                        raise
                    read_more()
            yield item
            separator = next_char()
            at += 1
            if separator == "]":
                break
            if separator != ",":
                raise ValueError("a list's items are not separated by commas")
    if next_char():
        raise ValueError("something follows the list")


# What an uploaded file of each kind must be: the checks its upload passes, its endings.
_IMAGE_FORMATS = {".jpg": "JPEG", ".jpeg": "JPEG", ".png": "PNG"}


def _checked_media(archive: Archive) -> Iterator[tuple[str, bytes]]:
    """Every file the archive would restore, as an upload of its kind would be stored
    (images decoded and encoded afresh, PDFs checked), one at a time. A file named by no
    row, outside its field's upload folder (`../`, an absolute path, `.htaccess`), of
    another type, or failing the image or PDF checks stops it (ArchiveError naming it)."""
    used = _file_owners(archive)
    for name in archive.media:
        path = PurePosixPath(name)
        if (
            not name
            or "\\" in name
            or path.is_absolute()
            or any(part in ("", ".", "..") or part.startswith(".") for part in name.split("/"))
        ):
            raise ArchiveError(
                f"The archive's file “{name[:200]}” lies outside the upload folders."
            )
        owner = used.get(name)
        if owner is None:
            raise ArchiveError(f"The archive's file “{name[:200]}” is named by none of its rows.")
        folder = _folder_of(owner)
        if not name.startswith(folder):
            raise ArchiveError(
                f"The archive's file “{name[:200]}” lies outside its upload folder ({folder})."
            )
        is_image = isinstance(owner, models.ImageField)
        limit = images.MAX_UPLOAD_BYTES if is_image else MAX_PDF_BYTES
        size = archive.zip.getinfo(f"media/{name}").file_size
        if size > limit:  # refused before it is read, as an upload of its kind would be
            raise ArchiveError(
                f"The archive's file “{name[:200]}” is refused: it is {size:,} bytes, more "
                f"than an upload of its kind may be ({limit:,})."
            )
        data = archive.read(name)
        try:
            if is_image:
                image_format = _IMAGE_FORMATS.get(path.suffix.lower())
                if image_format is None:
                    raise ValidationError("it is not named as a JPEG or PNG image")
                data = images.encode(images.open_upload(ContentFile(data)), image_format)
            else:
                if path.suffix.lower() != ".pdf":
                    raise ValidationError("it is not named as a PDF")
                check_pdf(ContentFile(data))
        except ValidationError as error:
            raise ArchiveError(
                f"The archive's file “{name[:200]}” is refused: {' '.join(error.messages)}"
            ) from None
        yield name, data


def _file_owners(archive: Archive) -> dict[str, models.FileField]:
    """{file name: the file field of the row that names it}, reading only the rows of
    models with files."""
    used: dict[str, models.FileField] = {}
    for label, fields in _upload_folders().items():
        if label not in archive.files:
            continue
        for row in archive.rows(label):
            values = row.get("fields")
            for name, field in fields.items():
                value = values.get(name) if isinstance(values, dict) else None
                if isinstance(value, str) and value:
                    used[value] = field
    return used


def _upload_folders() -> dict[str, dict[str, models.FileField]]:
    """{model label: {field name: file field}} of every archived model with files."""
    return {
        model._meta.label_lower: {
            f.name: f for f in model._meta.concrete_fields if isinstance(f, models.FileField)
        }
        for model in content.models_of((content.CONTENT, content.HISTORY))
        if any(isinstance(f, models.FileField) for f in model._meta.concrete_fields)
    }


def _folder_of(field: models.FileField) -> str:
    """The folder a file field stores its uploads in ("people/photos/")."""
    if callable(field.upload_to):  # e.g. pdf_upload_path: "<app>/pdf/<random>.pdf"
        return str(PurePosixPath(field.upload_to(field.model(), "x.pdf")).parent) + "/"
    return str(field.upload_to)


def _check_sizes(archive: zipfile.ZipFile, manifest: dict[str, Any]) -> None:
    """Refuse, before unpacking anything, members that would unpack past the settings'
    bounds (`ARCHIVE_MAX_MEMBER_BYTES`, `ARCHIVE_MAX_TOTAL_BYTES`), as the ZIP directory
    states them; reading stops at the stated size, so a member cannot grow past it."""
    if not isinstance(manifest["sha256"], dict):
        raise ArchiveError("The archive's manifest is incomplete.")
    total = 0
    for member in manifest["sha256"]:
        try:
            size = archive.getinfo(member).file_size
        except KeyError:
            raise ArchiveError(f"The archive lacks {member!r}, which its manifest lists.") from None
        if size > settings.ARCHIVE_MAX_MEMBER_BYTES:
            raise ArchiveError(
                f"{member} in the archive unpacks to {size:,} bytes, more than a restore reads "
                f"(ARCHIVE_MAX_MEMBER_BYTES is {settings.ARCHIVE_MAX_MEMBER_BYTES:,})."
            )
        total += size
    if total > settings.ARCHIVE_MAX_TOTAL_BYTES:
        raise ArchiveError(
            f"The archive unpacks to {total:,} bytes, more than a restore reads "
            f"(ARCHIVE_MAX_TOTAL_BYTES is {settings.ARCHIVE_MAX_TOTAL_BYTES:,})."
        )


def _manifest(archive: zipfile.ZipFile) -> dict[str, Any]:
    if "manifest.json" not in archive.namelist():
        raise ArchiveError("This ZIP file is not a labsite archive (no manifest.json).")
    with _reading():
        raw = archive.read("manifest.json")
    try:
        manifest = json.loads(raw)
    except ValueError:
        raise ArchiveError("The archive's manifest.json is not readable JSON.") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ArchiveError("This ZIP file is not a labsite archive.")
    version = manifest.get("version")
    if not isinstance(version, int) or version > VERSION:
        raise ArchiveError(
            f"This archive is in format version {version}; this labsite reads versions up to "
            f"{VERSION}. Upgrade labsite to restore it."
        )
    keys = ("migrations", "models", "media", "sha256", "accounts", "history")
    if any(key not in manifest for key in keys) or not isinstance(manifest["models"], list):
        raise ArchiveError("The archive's manifest is incomplete.")
    return manifest


def content_present(*, accounts: bool) -> list[str]:
    """What the database already holds that restoring an archive would collide with."""
    candidates: list[type[models.Model]] = [*([User] if accounts else []), *_content_models()]
    held = [
        model
        for model in candidates
        if model._meta.label_lower not in SINGLETONS and model._default_manager.exists()
    ]
    named = [  # by what an admin knows: the records, not their history
        f"{model._default_manager.count():,} {model._meta.verbose_name_plural}"
        for model in held
        if not issubclass(model, HistoricalChanges)
    ]
    if held and not named:
        named = ["edit history"]
    return named


def _content_models() -> list[type[models.Model]]:
    # the demo's record alone is no content a restore would collide with (it is replaced)
    return [m for m in archived_models(accounts=False, history=True) if m is not DemoRow]


def import_lab(
    source: io.BufferedIOBase | str, *, replace: bool = False, say: Callable[[str], None] = _silent
) -> dict[str, Any]:
    """Restore an archive into this database. Refuses, writing nothing, when the database
    holds content (unless `replace`: then that content is deleted first, in the same
    transaction) or when the archive is unreadable. Returns the manifest (with
    "unchanged": True when the database already held exactly the archive: nothing was
    written, and no page in the cache went cold).

    Rows and files restore as one: the files are checked and stored under a staging folder
    first, the rows written in one transaction, and only once it commits are the files
    moved to their names. A restore refused on the way leaves the database and the storage
    as they were (a photo of the same name keeps its bytes)."""
    with open_archive(source) as archive:
        manifest = archive.manifest
        present = content_present(accounts=manifest["accounts"])
        if present and not replace:
            raise ArchiveError(
                "This database is not empty (it holds " + ", ".join(present) + "). Restore "
                "into an empty database, or pass --replace to delete its content and restore "
                "the archive's."
            )
        ours = applied_migrations()
        theirs = manifest["migrations"]
        if replace and theirs == ours and _holds_exactly(archive):
            return {**manifest, "unchanged": True}
        executor = MigrationExecutor(connection)
        targets = _schema_targets(theirs, executor)
        plan = _plan_to(targets, executor)
        with _staged_media(archive, say) as staged:
            older = [(app, name) for app, name in targets if ours.get(app) != name]
            state_apps = global_apps
            with _schema_kept_if_refused(bool(older)):
                if older:
                    # Restore at the archive's own schema, then migrate forward like any
                    # upgrade; refused on the way, the schema and rows are as they were.
                    # What is replaced goes first, at this schema: migrating back past a
                    # language's columns refuses while texts in it are there.
                    say("the archive is from an older schema: migrating to it first")
                    with transaction.atomic():
                        _delete_content(accounts=manifest["accounts"] and replace)
                    state_apps = _migrate_to(targets, plan, executor)
                with transaction.atomic():
                    _delete_content(
                        accounts=manifest["accounts"] and replace, state_apps=state_apps
                    )
                    written = _write_rows(archive, state_apps, say)
                    _check_constraints(written)
                if older:
                    call_command("migrate", verbosity=0)
            staged.move_into_place()
        _files_restored(say)
    return manifest


def _schema_targets(theirs: Any, executor: MigrationExecutor) -> list[tuple[str, str | None]]:
    """Where each app's migrations stand for the archive's rows: as the manifest says, and
    this project's apps it does not name (added since it was written) at none, as they
    were then. ArchiveError when the manifest names migrations this labsite lacks (a newer
    one wrote it) or is not a map of app to migration."""
    if not isinstance(theirs, dict) or not all(
        isinstance(app, str) and isinstance(name, str) for app, name in theirs.items()
    ):
        raise ArchiveError("The archive's manifest does not say which migrations it was at.")
    unknown = [f"{a}.{n}" for a, n in theirs.items() if (a, n) not in executor.loader.graph.nodes]
    if unknown:
        raise ArchiveError(
            "This archive was written by a newer labsite (its schema has "
            + ", ".join(sorted(unknown))
            + "). Upgrade labsite to restore it."
        )
    targets: list[tuple[str, str | None]] = list(theirs.items())
    for config in content.project_apps():
        if config.label not in theirs and config.label in executor.loader.migrated_apps:
            targets.append((config.label, None))
    return targets


def _plan_to(targets: list[tuple[str, str | None]], executor: MigrationExecutor) -> Any:
    """The migrations that take this database to the archive's schema. ArchiveError when
    none do: the manifest mixes states no release was at (an app at a migration that needs
    another app's migration the manifest says was not there)."""
    try:
        plan = executor.migration_plan(targets)
    except (NodeNotFoundError, KeyError, ValueError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ArchiveError(
            f"The archive's manifest names a schema no migration plan reaches ({reason})."
        ) from None
    graph, reached = executor.loader.graph, set(executor.loader.applied_migrations)
    for migration, backwards in plan:
        node = (migration.app_label, migration.name)
        if backwards:
            reached.discard(node)
        else:
            reached.add(node)
    for app, name in targets:
        wanted = set() if name is None else set(graph.forwards_plan((app, name)))
        if {n for n in reached if n[0] == app} != {n for n in wanted if n[0] == app}:
            raise ArchiveError(
                "The archive's manifest names a schema no migration plan reaches (its apps' "
                f"migrations were never together where it says: {app} at {name})."
            )
    return plan  # unapplied in the reverse of the forwards order (core/rollback.py)


def _migrate_to(
    targets: list[tuple[str, str | None]], plan: Any, executor: MigrationExecutor
) -> Any:
    """Migrate the database to the archive's schema along `plan` and return that schema's
    models: the content types and permissions its models had are made, as that release's
    `migrate` made them (its groups name them)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # the rows deleted before (--replace) leave deferred foreign-key checks pending,
            # and PostgreSQL alters no table while any are: they are checked now
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    try:
        executor.migrate(targets, plan=plan)
    except InvalidMigrationPlan as error:
        raise ArchiveError(
            "The archive's manifest names a schema no migration plan reaches "
            f"({str(error).splitlines()[0]})."
        ) from None
    changes.schema_moved()
    executor = MigrationExecutor(connection)
    state_apps = executor.loader.project_state(
        [(app, name) for app, name in targets if name is not None]
    ).apps
    ContentType.objects.clear_cache()
    for config in content.content_apps(state_apps):
        create_contenttypes(config, verbosity=0, apps=state_apps)
        create_permissions(config, verbosity=0, apps=state_apps)
    return state_apps


def _holds_exactly(archive: Archive) -> bool:
    """Whether this database (and its storage) holds what the archive holds, row for row
    and byte for byte: restoring it again would change nothing, and moves nothing (no page
    in the cache goes cold). Reads every row once, as an export does."""
    manifest = archive.manifest
    chosen = archived_models(accounts=manifest["accounts"], history=manifest["history"])
    if [m._meta.label_lower for m in chosen] != list(archive.files):
        return False
    for model in chosen:
        ours = _serialized_rows(model, accounts=manifest["accounts"], history=manifest["history"])
        theirs = archive.rows(model._meta.label_lower)
        for mine, stored in zip_longest(ours, theirs):
            if mine is None or stored is None:
                return False
            if json.loads(json.dumps(mine, cls=_ExactEncoder)) != stored:
                return False
    names: set[str] = set().union(*(_file_names(model) for model in chosen))
    if names != set(archive.media):
        return False
    for name in names:
        digest = hashlib.sha256()
        try:
            with default_storage.open(name, "rb") as file:
                while block := file.read(_BLOCK):
                    digest.update(block)
        except OSError:
            return False
        if digest.hexdigest() != manifest["sha256"].get(f"media/{name}"):
            return False
    return True


def _files_restored(say: Callable[[str], None]) -> None:
    """What a model makes from its restored files (the media library's renditions): each
    content model with a `files_restored()` classmethod is asked, once the files are in
    place. Renditions are made again rather than carried, as they follow from the file."""
    for model in content.models_of():
        made = getattr(model, "files_restored", None)
        if made is not None:
            say(f"{model._meta.verbose_name_plural}: {made():,} made again")


@contextmanager
def _schema_kept_if_refused(migrating: bool) -> Iterator[None]:
    """A restore that migrates the schema to the archive's and back is one unit with its
    rows: on PostgreSQL one transaction holds the schema changes too; SQLite cannot change a
    schema inside a transaction, so its database is copied first and copied back when the
    restore is refused. (Migrating back drops the columns later migrations added: a refused
    restore used to come back without what they held.)"""
    if not migrating:
        yield
        return
    if connection.vendor != "sqlite":
        with transaction.atomic():
            yield
        return
    connection.ensure_connection()
    live = connection.connection
    with tempfile.TemporaryDirectory() as folder:
        copy = sqlite3.connect(Path(folder) / "before-restore.sqlite3")
        try:
            live.backup(copy)
            try:
                yield
            except BaseException:
                connection.close()
                connection.ensure_connection()
                copy.backup(connection.connection)
                ContentType.objects.clear_cache()
                raise
        finally:
            copy.close()


class _Staged:
    """Files stored under a staging folder of the media storage, to be moved to their own
    names once the rows that name them are in."""

    def __init__(self) -> None:
        self.folder = f"{STAGING}/{secrets.token_hex(8)}"
        self.names: list[str] = []

    def add(self, name: str, data: bytes) -> None:
        staged = f"{self.folder}/{name}"
        if default_storage.save(staged, ContentFile(data)) != staged:
            raise ArchiveError(f"The file “{name}” could not be staged under its own name.")
        self.names.append(name)

    def move_into_place(self) -> None:
        for name in self.names:
            storage.move(default_storage, f"{self.folder}/{name}", name)
        self.names = []

    def discard(self) -> None:
        for name in self.names:
            default_storage.delete(f"{self.folder}/{name}")
        folder = storage.local_folder(default_storage)
        if folder is not None:  # the folders a local storage leaves
            shutil.rmtree(folder / self.folder, ignore_errors=True)
            with suppress(OSError):  # another restore's files may be staged there
                (folder / STAGING).rmdir()


@contextmanager
def _staged_media(archive: Archive, say: Callable[[str], None]) -> Iterator[_Staged]:
    """The archive's files, checked as uploads and staged (see `_Staged`); whatever is
    still staged when the restore ends, refused or not, is removed."""
    staged = _Staged()
    try:
        for name, data in _checked_media(archive):
            staged.add(name, data)
        say(f"media: {len(staged.names):,} files checked")
        yield staged
    finally:
        staged.discard()


def _delete_content(*, accounts: bool, state_apps: Any = global_apps) -> None:
    """Delete what a restore replaces (with `accounts`, the accounts too): every row of the
    content apps, content, history and transient alike (runs, previews, the papers as
    exports wrote them: the task worker writes those again), and the links between them
    (many-to-many rows, such as an education row's advisors). All of it after --replace,
    else only the settings row a new site makes for itself; and the record of the demo's
    rows, which names rows by id. Tables are those of the schema being restored into (an
    older archive's has fewer)."""
    kinds = (content.CONTENT, content.HISTORY, content.TRANSIENT)
    deleted = []
    for current in reversed(content.models_of(kinds)):
        try:
            model = _model(state_apps, current._meta.label_lower)
        except LookupError:
            continue  # added after the archive's schema: no table yet
        for field in model._meta.local_many_to_many:
            through = field.remote_field.through
            if through is not None and through._meta.auto_created:
                through._default_manager.all()._raw_delete(connection.alias)
        model._default_manager.all()._raw_delete(connection.alias)
        deleted.append(current)
    # The demo's record names rows by id: kept over other rows, remove_demo would take them.
    try:
        state_apps.get_model("labsite", "demorow")
    except LookupError:
        pass  # a schema from before the record: the migration back dropped its table
    else:
        DemoRow.objects.all()._raw_delete(connection.alias)
    # A raw delete sends no signal: what follows the rows (the search index, whose documents
    # of a model the archive has no rows of would outlive them) is told once all are gone,
    # as a change to every row of each model (told earlier, outside a transaction, the
    # exports' worker would write entries again for papers not yet deleted).
    for model in deleted:
        changes.changed(model, using=connection.alias)
    if accounts:
        LogEntry.objects.all().delete()
        User.objects.all().delete()


class _Deserializer(python_serializer.Deserializer):
    """Django's deserializer reading labsite's rows into the models of a given schema (an
    older archive's). Accounts and groups are Django's own, read as they are now."""

    state_apps: Any = global_apps

    def _get_model_from_node(self, model_identifier: str) -> type[models.Model]:
        try:
            return _model(self.state_apps, model_identifier)
        except (LookupError, TypeError):
            raise DeserializationError(f"Invalid model identifier: {model_identifier}") from None


def _model(state_apps: Any, label: str) -> type[models.Model]:
    is_content = label.split(".")[0] in {config.label for config in content.content_apps()}
    return (state_apps if is_content else global_apps).get_model(label)


def _deserialize(rows: list[dict[str, Any]], state_apps: Any) -> Iterator[Any]:
    deserializer = _Deserializer(rows, using=DEFAULT_DB_ALIAS)
    deserializer.state_apps = state_apps
    return iter(deserializer)


def _write_rows(archive: Archive, state_apps: Any, say: Callable[[str], None]) -> list[Any]:
    written = []
    for label in archive.files:
        try:
            model = _model(state_apps, label)
        except LookupError as error:
            raise ArchiveError(f"The rows of {label} cannot be restored: {error}") from None
        count = 0
        rows = archive.rows(label)
        while batch := list(islice(rows, _BATCH)):
            try:
                objects = list(_deserialize(batch, state_apps))
            except (
                DeserializationError,
                FieldDoesNotExist,
                ValueError,
                TypeError,
                AttributeError,
            ) as error:
                raise ArchiveError(f"The rows of {label} cannot be restored: {error}") from None
            try:
                with transaction.atomic():  # so that a refused row leaves the restore's own
                    if model._meta.label_lower == "auth.group":
                        for item in objects:  # migrate made the declared groups: by name
                            item.save()
                    else:
                        insert_rows(model, [item.object for item in objects], raw=True)
                        for item in objects:
                            for name, values in (item.m2m_data or {}).items():
                                getattr(item.object, name).set(values)
            except (DatabaseError, ValueError, TypeError) as error:
                raise ArchiveError(
                    f"The rows of {label} do not fit this database's tables: {error}"
                ) from None
            count += len(objects)
        written.append(model)
        say(f"{label}: {count:,} rows")
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), written):
            cursor.execute(sql)
    return written


def _check_constraints(written: Iterable[type[models.Model]]) -> None:
    """Every reference resolves before the restore commits (SQLite checks them only then)."""
    tables = [model._meta.db_table for model in written]
    try:
        connection.check_constraints(table_names=tables)
    except Exception as error:
        raise ArchiveError(f"The archive's rows do not fit together: {error}") from None
