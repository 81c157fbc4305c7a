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

Restoring checks the whole archive (format, version, checksums, every row against its
model) before it writes anything, then writes every row in one transaction. An archive
written by an older labsite is restored at its own schema, then migrated forward.
"""

import hashlib
import io
import json
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import PurePosixPath
from typing import Any

from django.apps import apps as global_apps
from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group, User
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
from django.db.migrations.executor import MigrationExecutor
from simple_history.models import HistoricalChanges

from core import content, images
from core.bulk import insert_rows
from core.documents import check_pdf

FORMAT = "labsite-archive"
VERSION = 1
# Rows that refer to these refer by natural key; groups are matched by name on restore.
BY_NATURAL_KEY = {"auth.group", "auth.user", "admin.logentry"}
# A site makes its settings row on its first page: the archive's replaces it. (Archives
# written before lab 0001 name the settings under people.)
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
    through `say`. Returns the manifest."""
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

        def write(member: str, data: bytes) -> None:
            archive.writestr(member, data)
            manifest["sha256"][member] = hashlib.sha256(data).hexdigest()

        for model in chosen:
            label = model._meta.label_lower
            rows = _serialized_rows(model, accounts=accounts)
            media.update(_file_names(model))
            member = f"data/{label}.json"
            write(member, json.dumps(rows, cls=DjangoJSONEncoder, ensure_ascii=False).encode())
            manifest["models"].append({"model": label, "file": member, "rows": len(rows)})
            say(f"{label}: {len(rows):,} rows")
        for name in sorted(media):
            if not default_storage.exists(name):
                raise ArchiveError(f"The file “{name}” that a row names is missing from storage.")
            with default_storage.open(name, "rb") as file:
                write(f"media/{name}", file.read())
            manifest["media"].append(name)
        say(f"media: {len(manifest['media']):,} files")
        archive.writestr("manifest.json", json.dumps(manifest, indent=1))
    return manifest


def _serialized_rows(model: type[models.Model], *, accounts: bool) -> list[dict[str, Any]]:
    natural = model._meta.label_lower in BY_NATURAL_KEY
    rows = serializers.serialize(
        "python",
        model._default_manager.order_by("pk").iterator(chunk_size=2000),
        use_natural_foreign_keys=natural,
        use_natural_primary_keys=model is Group,
    )
    if not accounts:  # the rows keep their content, not who they belonged to or were by
        account_fields = [
            f.name for f in model._meta.concrete_fields if f.is_relation and f.related_model is User
        ]
        for row in rows:
            row["fields"].update(dict.fromkeys(account_fields))
    return list(rows)


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


@dataclass
class Archive:
    """An archive read and checked, ready to restore: its manifest, rows and files."""

    manifest: dict[str, Any]
    rows: dict[str, list[dict[str, Any]]]
    media: dict[str, bytes]


def read_archive(source: io.BufferedIOBase | str) -> Archive:
    """Read and check an archive: ArchiveError, naming the fault, when it is not a labsite
    archive, was written by a newer labsite, or is truncated or altered."""
    try:
        with zipfile.ZipFile(source) as archive:
            manifest = _manifest(archive)
            _check_sizes(archive, manifest)
            contents = {}
            for member, digest in manifest["sha256"].items():
                data = archive.read(member)
                if hashlib.sha256(data).hexdigest() != digest:
                    raise ArchiveError(
                        f"{member} in the archive is damaged (its checksum differs)."
                    )
                contents[member] = data
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as error:
        raise ArchiveError(f"This archive is damaged or truncated ({error}).") from None
    except KeyError as error:
        raise ArchiveError(f"The archive lacks {error}, which its manifest lists.") from None
    rows = {}
    for entry in manifest["models"]:
        try:
            rows[entry["model"]] = json.loads(contents[entry["file"]])
        except (KeyError, ValueError):
            raise ArchiveError(f"{entry['file']} in the archive is not readable JSON.") from None
    media = {}
    for name in manifest["media"] if isinstance(manifest["media"], list) else [None]:
        if not isinstance(name, str) or f"media/{name}" not in contents:
            raise ArchiveError(f"The archive lists a file it does not hold ({str(name)[:200]}).")
        media[name] = contents[f"media/{name}"]
    checked = Archive(manifest, rows, media)
    _check_media(checked)
    return checked


# What an uploaded file of each kind must be: the checks its upload passes, its endings.
_IMAGE_ENDINGS = (".jpg", ".jpeg", ".png", ".webp")


def _check_media(archive: Archive) -> None:
    """Every file the archive would restore passes what an upload of its kind passes, and
    lies in its field's upload folder: a file named by no row, outside those folders
    (`../`, an absolute path, `.htaccess`), of another type, or failing the image or PDF
    checks is refused (ArchiveError naming it), before anything is written."""
    folders = _upload_folders()
    used: dict[str, models.FileField] = {}
    for label, rows in archive.rows.items():
        for name, field in folders.get(label, {}).items():
            for row in rows if isinstance(rows, list) else []:
                values = row.get("fields") if isinstance(row, dict) else None
                value = values.get(name) if isinstance(values, dict) else None
                if isinstance(value, str) and value:
                    used[value] = field
    for name, data in archive.media.items():
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
        try:
            if isinstance(owner, models.ImageField):
                if not name.lower().endswith(_IMAGE_ENDINGS):
                    raise ValidationError("it is not named as an image")
                images.open_upload(ContentFile(data))
            else:
                if not name.lower().endswith(".pdf"):
                    raise ValidationError("it is not named as a PDF")
                check_pdf(ContentFile(data))
        except ValidationError as error:
            raise ArchiveError(
                f"The archive's file “{name[:200]}” is refused: {' '.join(error.messages)}"
            ) from None


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
    try:
        manifest = json.loads(archive.read("manifest.json"))
    except KeyError:
        raise ArchiveError("This ZIP file is not a labsite archive (no manifest.json).") from None
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
    if any(key not in manifest for key in keys):
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
    return archived_models(accounts=False, history=True)


def import_lab(
    source: io.BufferedIOBase | str, *, replace: bool = False, say: Callable[[str], None] = _silent
) -> dict[str, Any]:
    """Restore an archive into this database. Refuses, writing nothing, when the database
    holds content (unless `replace`: then that content is deleted first, in the same
    transaction) or when the archive is unreadable. Returns the manifest."""
    archive = read_archive(source)
    manifest = archive.manifest
    present = content_present(accounts=manifest["accounts"])
    if present and not replace:
        raise ArchiveError(
            "This database is not empty (it holds " + ", ".join(present) + "). Restore into an "
            "empty database, or pass --replace to delete its content and restore the archive's."
        )
    ours = applied_migrations()
    theirs = manifest["migrations"]
    executor = MigrationExecutor(connection)
    unknown = [f"{a}.{n}" for a, n in theirs.items() if (a, n) not in executor.loader.graph.nodes]
    if unknown:
        raise ArchiveError(
            "This archive was written by a newer labsite (its schema has "
            + ", ".join(sorted(unknown))
            + "). Upgrade labsite to restore it."
        )
    older = {app: name for app, name in theirs.items() if ours.get(app) != name}
    state_apps = global_apps
    if older:
        # Restore at the archive's own schema, then migrate forward like any upgrade.
        say("the archive is from an older schema: migrating to it first")
        targets = list(theirs.items())
        executor.migrate(targets, plan=executor.migration_plan(targets))
        executor = MigrationExecutor(connection)
        state_apps = executor.loader.project_state(targets).apps
    try:
        with transaction.atomic():
            _delete_content(accounts=manifest["accounts"] and replace, state_apps=state_apps)
            written = _write_rows(archive, state_apps, say)
            _check_constraints(written)
        # Files only once the rows are in: a restore refused on the way leaves the storage
        # as it was (a photo of the same name keeps its bytes). They were checked on reading.
        _write_media(archive, say)
    finally:
        if older:
            call_command("migrate", verbosity=0)
    return manifest


def _delete_content(*, accounts: bool, state_apps: Any = global_apps) -> None:
    """Delete the content an archive restores (with `accounts`, the accounts too): all of it
    after --replace, else only the settings row a new site makes for itself. Tables are
    those of the schema being restored into (an older archive's has fewer)."""
    for current in reversed(_content_models()):
        try:
            model = _model(state_apps, current._meta.label_lower)
        except LookupError:
            continue  # added after the archive's schema: no table yet
        model._default_manager.all()._raw_delete(connection.alias)
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
    for entry in archive.manifest["models"]:
        label = entry["model"]
        rows = archive.rows[label]
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            raise ArchiveError(f"The rows of {label} in the archive are not a list of rows.")
        try:
            model = _model(state_apps, label)
            objects = list(_deserialize(rows, state_apps))
        except (
            LookupError,
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
        written.append(model)
        say(f"{label}: {len(objects):,} rows")
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), written):
            cursor.execute(sql)
    return written


def _write_media(archive: Archive, say: Callable[[str], None]) -> None:
    for name, data in archive.media.items():
        if default_storage.exists(name):
            default_storage.delete(name)
        stored = default_storage.save(name, ContentFile(data))
        if stored != name:
            raise ArchiveError(f"The file “{name}” could not be stored under its own name.")
    say(f"media: {len(archive.media):,} files")


def _check_constraints(written: Iterable[type[models.Model]]) -> None:
    """Every reference resolves before the restore commits (SQLite checks them only then)."""
    tables = [model._meta.db_table for model in written]
    try:
        connection.check_constraints(table_names=tables)
    except Exception as error:
        raise ArchiveError(f"The archive's rows do not fit together: {error}") from None
