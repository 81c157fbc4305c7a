"""Refresh citation counts from Crossref for every publication with a DOI."""

import datetime

from django.core.management.base import BaseCommand, CommandError

from publications import importing
from publications.models import Publication


class Command(BaseCommand):
    help = "Read each DOI's citation count (is-referenced-by-count) from Crossref."
    client = importing.HttpClient()

    def handle(self, *args, **options):
        updated = failed = 0
        for publication in Publication.objects.exclude(doi="").order_by("pk"):
            record = importing.fetch_doi(publication.doi, self.client)
            if record.problems or record.citation_count is None:
                failed += 1
                problem = "; ".join(record.problems) or "Crossref gives no citation count"
                self.stderr.write(f"DOI {publication.doi}: {problem}")
                continue
            publication.citation_count = record.citation_count
            publication.citations_read_on = record.citations_read_on or datetime.date.today()
            publication.citations_source = "Crossref"
            publication.save(
                update_fields=["citation_count", "citations_read_on", "citations_source", "updated"]
            )
            updated += 1
        self.stdout.write(f"{updated} updated, {failed} failed")
        if failed:
            raise CommandError(f"{failed} DOI(s) could not be refreshed.")
