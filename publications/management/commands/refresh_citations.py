"""Refresh citation counts from OpenAlex for every publication with a DOI."""

from django.core.management.base import BaseCommand, CommandError

from publications import importing
from publications.importing.citations import refresh_counts
from publications.models import Publication


class Command(BaseCommand):
    help = (
        "Read every DOI's citation count from OpenAlex (50 DOIs a request) and store it with "
        "today's date. Counts an admin typed by hand are kept. Exits 0 when OpenAlex was "
        "read, DOIs it does not know counted in the summary; 1 when it could not be read."
    )
    client = importing.HttpClient()

    def handle(self, *args, **options):
        publications = Publication.objects.exclude(doi="").order_by("pk")
        try:
            updated, kept, missing = refresh_counts(publications, self.client)
        except importing.ImportProblem as problem:
            raise CommandError(f"OpenAlex could not be read: {problem}") from None
        if options["verbosity"] >= 2:
            for publication in missing:
                self.stdout.write(f"DOI {publication.doi}: not found on OpenAlex")
        for publication in kept:
            self.stdout.write(f"DOI {publication.doi}: kept the count typed by hand")
        self.stdout.write(
            f"{len(updated)} updated, {len(kept)} kept, {len(missing)} not found, "
            f"{len(publications) - len(updated) - len(kept) - len(missing)} unchanged"
        )
        # A DOI OpenAlex does not index (yet) is no failure of the run: every other count
        # was read, so a nightly run that did what it could exits 0 and says how many.
        if missing:
            self.stdout.write(f"{len(missing)} DOI(s) not on OpenAlex (listed with --verbosity 2)")
