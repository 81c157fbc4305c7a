"""E-mail each member the harvested works newly waiting for their review (weekly, by cron or
a systemd timer); a work is never named twice to the same member."""

from django.core.management.base import BaseCommand

from harvest.digests import send_digests


class Command(BaseCommand):
    help = "E-mail each member the harvested works newly waiting for their review."

    def handle(self, *args, **options):
        sent = send_digests()
        for person, count in sent:
            self.stdout.write(f"{person.name}: {count} work(s)")
        self.stdout.write(f"{len(sent)} digest(s) sent.")
