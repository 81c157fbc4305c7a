"""manage.py import_lab ARCHIVE: restore a lab written by `export_lab`."""

import time

from django.core.management.base import BaseCommand, CommandError

from labsite.archive import ArchiveError, import_lab


class Command(BaseCommand):
    help = (
        "Restore an archive written by `export_lab` into an empty database (run `migrate` "
        "first). An archive from an older labsite is migrated forward. Nothing is written "
        "when the archive is damaged or the database already holds content."
    )

    def add_arguments(self, parser):
        parser.add_argument("archive", help="an archive written by export_lab")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="delete the content this database holds and restore the archive's instead",
        )

    def handle(self, *args, archive, replace, verbosity, **options):
        say = self.stdout.write if verbosity > 1 else (lambda message: None)
        start = time.monotonic()
        try:
            manifest = import_lab(archive, replace=replace, say=say)
        except (ArchiveError, OSError) as error:
            reason = str(error) if str(error).endswith((".", "?", "!")) else f"{error}."
            raise CommandError(f"{reason} Nothing was restored.") from None
        if manifest.get("unchanged"):
            self.stdout.write(
                f"This database already holds exactly {archive} (written "
                f"{manifest['created']}): nothing was written."
            )
            return
        rows = sum(entry["rows"] for entry in manifest["models"])
        self.stdout.write(
            f"Restored {rows:,} rows and {len(manifest['media']):,} files from {archive} "
            f"(written {manifest['created']}) in {time.monotonic() - start:.1f} s."
        )
