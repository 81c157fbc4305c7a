"""manage.py export_static DIR: the public site as plain files."""

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from labsite.static_site import StaticExportError, export_static


class Command(BaseCommand):
    help = (
        "Write every public page, feed, sitemap, export, static file and upload into DIR, so "
        "that any plain web server serving DIR is the site. Re-running rewrites only the "
        "files that changed and removes pages that are gone; when nothing has changed since the "
        "last run, it does nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("directory", type=Path)
        parser.add_argument(
            "--base-url",
            default="",
            help="where the copy will be served, e.g. https://lab.example.org/ or "
            "https://user.github.io/lab/ (absolute addresses in feeds, the sitemap and "
            "page metadata name it; links are under its path)",
        )
        parser.add_argument(
            "--force",
            action="store_true",
            help="render every page again even when nothing has changed since the last export",
        )

    def handle(self, *args, directory, base_url, force, verbosity, **options):
        start = time.monotonic()
        say = self.stdout.write if verbosity > 1 else (lambda message: None)
        try:
            result = export_static(directory, base_url, say=say, force=force)
        except StaticExportError as error:
            raise CommandError(str(error)) from None
        if result.kept:
            self.stdout.write(
                f"{directory}: nothing has changed since the last export; its "
                f"{result.kept:,} files are kept as they are (--force renders them again)."
            )
            return
        self.stdout.write(
            f"{directory}: {result.files:,} files ({len(result.written):,} written, "
            f"{len(result.unchanged):,} unchanged, {len(result.removed):,} removed) "
            f"in {time.monotonic() - start:.1f} s."
        )
        for broken in result.broken:
            self.stderr.write(f"A link leads nowhere: {broken}")
        if result.broken:
            raise CommandError(f"{len(result.broken)} links lead nowhere (listed above).")
