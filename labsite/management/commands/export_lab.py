"""manage.py export_lab ARCHIVE: the whole lab, with its files, in one archive."""

import os
import time

from django.core.management.base import BaseCommand, CommandError

from labsite.archive import ArchiveError, export_lab


class Command(BaseCommand):
    help = (
        "Write the whole lab (people, sections, publications, venues, talks, awards, news, "
        "settings, and by default accounts, groups and edit history) with every uploaded "
        "file it names to one archive; `import_lab` restores it."
    )

    def add_arguments(self, parser):
        parser.add_argument("archive", help="the file to write, e.g. lab-2026-12-02.zip")
        parser.add_argument(
            "--no-accounts",
            action="store_true",
            help="leave out accounts and groups (rows keep their content, not their owner)",
        )
        parser.add_argument("--no-history", action="store_true", help="leave out the edit history")

    def handle(self, *args, archive, no_accounts, no_history, verbosity, **options):
        say = self.stdout.write if verbosity > 1 else (lambda message: None)
        partial = f"{archive}.partial"
        start = time.monotonic()
        try:
            with open(partial, "wb") as file:
                manifest = export_lab(
                    file,
                    accounts=not no_accounts,
                    history=not no_history,
                    say=say,
                )
            os.replace(partial, archive)  # a failed export leaves no half-written archive
        except (ArchiveError, OSError) as error:
            if os.path.exists(partial):
                os.remove(partial)
            raise CommandError(str(error)) from None
        rows = sum(entry["rows"] for entry in manifest["models"])
        self.stdout.write(
            f"Wrote {archive}: {rows:,} rows of {len(manifest['models'])} kinds and "
            f"{len(manifest['media']):,} files, {os.path.getsize(archive) / 1024:,.0f} KiB, "
            f"in {time.monotonic() - start:.1f} s."
        )
