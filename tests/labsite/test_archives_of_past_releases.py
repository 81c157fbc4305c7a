"""Archives written by past releases (tests/labsite/data/past_releases, made by each
commit's own `load_demo` and `export_lab`) restore with this release: into an empty database
and over a lab with --replace, row for row what the database they were written from holds
once this release's `migrate` has upgraded it. Before, an archive from before the change log
was refused ("no such table: labsite_contentchange"), and one from before the lab app
stopped at its groups' permissions."""

import gzip
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from people.models import Person
from publications.models import Publication
from tests.labsite.test_archive import NOT_ARCHIVED, _columns, _empty_the_database, _rewritten

PAST = Path(__file__).parent / "data" / "past_releases"
RELEASES = {
    "64eeb6bb7f874ef4dfac7bd031ba032845f3d679": "before the lab app and the content version",
    "68f6567f714bc58f38609904a66d8b6833d4f422": "before the change log",
    "84469e8f4277cae2b40f4f745a7ffc3cf9214539": "the wave-4 release",
}
# and the task queue, where a migrate queues the papers' exports to be written again
EXCLUDED = [*NOT_ARCHIVED, "django_tasks_database"]


def _dump():
    out = io.StringIO()
    call_command(
        "dumpdata", natural_foreign=True, natural_primary=True, exclude=EXCLUDED, stdout=out
    )
    return json.loads(out.getvalue())


def _upgraded_source(commit, folder):
    """The rows of the database `commit`'s archive was written from, once this release's
    `migrate` has upgraded it, as dumpdata writes them: started in another process (the
    restore runs meanwhile); returns a function that waits for them."""
    database = folder / f"{commit}.sqlite3"
    with gzip.open(PAST / f"{commit}.sqlite3.gz") as packed, database.open("wb") as out:
        shutil.copyfileobj(packed, out)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": f"sqlite:///{database}",
        "LABSITE_ENV_FILE": "/dev/null",
    }
    script = (
        "import django, sys; django.setup();"
        "from django.core.management import call_command as c;"
        "c('migrate', verbosity=0);"
        "c('dumpdata', natural_foreign=True, natural_primary=True, indent=1,"
        f" exclude={EXCLUDED!r}, output=sys.argv[1])"
    )
    dumped = folder / f"{commit}.json"
    process = subprocess.Popen(
        [sys.executable, "-c", script, str(dumped)],
        cwd=settings.BASE_DIR,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )

    def rows():
        _, errors = process.communicate(timeout=900)
        assert process.returncode == 0, errors
        return json.loads(dumped.read_text())

    return rows


def _row_diffs(restored, source):
    """Every row that differs between the two dumps, field by field: [(model, key, field,
    restored value, source value)], a row missing on one side with field None."""

    def keyed(rows):
        return {
            (row["model"], json.dumps(row.get("pk"))): {
                name: _to_the_millisecond(value) for name, value in row["fields"].items()
            }
            for row in rows
        }

    ours, theirs = keyed(restored), keyed(source)
    diffs = []
    for key in sorted(ours.keys() | theirs.keys()):
        if key not in ours or key not in theirs:
            diffs.append((*key, None, ours.get(key), theirs.get(key)))
            continue
        for field in sorted(ours[key].keys() | theirs[key].keys()):
            if ours[key].get(field) != theirs[key].get(field):
                diffs.append((*key, field, ours[key].get(field), theirs[key].get(field)))
    return diffs


def _to_the_millisecond(value):
    """dumpdata writes times to the millisecond, and leaves out ".000": a time 412 µs past
    its second reads "…:35.000Z", the same time restored from an archive written before
    0ac3807 (which kept milliseconds too) reads "…:35Z"."""
    return _NO_MILLISECONDS.sub("", value) if isinstance(value, str) else value


_NO_MILLISECONDS = re.compile(r"(?<=T\d\d:\d\d:\d\d)\.000(?=Z$|[+-]\d\d:\d\d$)")


def _at_this_release():
    executor = MigrationExecutor(connection)
    return not executor.migration_plan(executor.loader.graph.leaf_nodes())


@pytest.mark.parametrize("commit", RELEASES, ids=RELEASES.values())
@pytest.mark.django_db(transaction=True)
def test_an_archive_a_past_release_wrote_restores_row_for_row(commit, tmp_path):
    expected = _upgraded_source(commit, tmp_path)
    path = str(PAST / f"{commit}.zip")
    _empty_the_database()

    call_command("import_lab", path, verbosity=0)

    assert _at_this_release()
    restored = _dump()
    source = expected()
    assert Person.objects.filter(slug="teng-ma").exists()
    assert Publication.objects.count() == 53
    assert _row_diffs(restored, source) == []

    # Over the lab it restored (content in both languages: a rollback past the second
    # language refuses while Chinese texts are there), as after a night's backup.
    call_command("import_lab", path, "--replace", verbosity=0)

    assert _at_this_release()
    assert _row_diffs(_dump(), source) == []


def _lab_app_missing(manifest, members):
    # people 0014 and later need lab 0001: no release was ever without it at people 0018
    del manifest["migrations"]["lab"]


def _migrations_not_a_map(manifest, members):
    manifest["migrations"] = ["people", "0018_person_has_left"]


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (_lab_app_missing, "were never together where it says"),
        (_migrations_not_a_map, "does not say which migrations it was at"),
    ],
)
@pytest.mark.django_db(transaction=True)
def test_a_manifest_no_migration_plan_reaches_is_refused_in_one_line(change, says, demo, tmp_path):
    path = tmp_path / "mixed.zip"
    written = (PAST / "68f6567f714bc58f38609904a66d8b6833d4f422.zip").read_bytes()
    path.write_bytes(_rewritten(written, change))
    before, shape = _dump(), _columns()

    with pytest.raises(CommandError) as refused:
        call_command("import_lab", str(path), "--replace")

    assert says in str(refused.value)
    assert "\n" not in str(refused.value)  # one line, no traceback
    assert str(refused.value).endswith("Nothing was restored.")
    assert _columns() == shape and _at_this_release()
    assert _dump() == before
