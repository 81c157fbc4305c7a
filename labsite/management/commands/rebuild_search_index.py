"""Rebuild the site's search index from the content (labsite/search.py)."""

import time

from django.core.management.base import BaseCommand

from labsite import search
from labsite.models import SearchDocument


class Command(BaseCommand):
    help = (
        "Rebuild the search index from the site's content. Saves keep it current; run this "
        "after changing what is searched, or if it is ever in doubt."
    )

    def handle(self, *args, **options):
        started = time.monotonic()
        search.rebuild()
        self.stdout.write(
            f"Indexed {SearchDocument.objects.count()} pages in {time.monotonic() - started:.1f} s."
        )
