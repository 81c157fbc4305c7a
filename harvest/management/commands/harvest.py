"""Harvest members' new work from ORCID, OpenAlex, Crossref, DBLP and arXiv into the review
queue, and refresh citation counts and GitHub stars: for cron or a systemd timer."""

from django.core.management.base import BaseCommand, CommandError

from harvest.models import HarvestRun
from harvest.runs import execute, left_out_by_kind
from harvest.sources import harvesters
from people.models import Person


class Command(BaseCommand):
    help = (
        "Read every member's works from the sources they have an identity at, fold them into "
        "candidates for review, and (on a full run) refresh citation counts and GitHub stars. "
        "A source that fails is reported and the others go on; the exit status is 0 unless "
        "the run itself stopped."
    )
    client = None  # tests may set a stand-in

    def add_arguments(self, parser):
        parser.add_argument("--person", metavar="SLUG", help="Only this member.")
        parser.add_argument(
            "--source",
            action="append",
            choices=list(harvesters()),
            help="Only this source (repeatable); figures are refreshed on full runs only.",
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="Read and count; write no candidate."
        )

    def handle(self, *args, **options):
        person = None
        if options["person"]:
            person = Person.objects.filter(slug=options["person"]).first()
            if person is None:
                raise CommandError(f"No person has the address “{options['person']}”.")
        run = HarvestRun.objects.create(
            trigger="command",
            person=person,
            sources=options["source"] or [],
            dry_run=options["dry_run"],
        )
        run = execute(run, self.client)
        for name, figures in run.report.items():
            if name in harvesters():
                errors = figures["errors"]
                self.stdout.write(
                    f"{name}: {figures['fetched']} fetched, {figures['new']} new, "
                    f"{figures['matched']} matched, {len(errors)} error(s)"
                )
                for error in errors:
                    self.stderr.write(f"  {name}: {error}")
        if completion := run.report.get("completion"):
            self.stdout.write(
                f"completed by DOI: {completion['asked']} asked, {completion['completed']} "
                f"completed, {completion['not at Crossref']} not at Crossref, "
                f"{completion['left for the next run']} left for the next run"
            )
            for error in completion["errors"]:
                self.stderr.write(f"  completion: {error}")
        created = run.report.get("candidates", {}).get("created", 0)
        verb = "would be created" if run.dry_run else "created"
        self.stdout.write(f"{created} candidate(s) {verb}. Report: {run.get_absolute_url()}")
        if left_out := run.report.get("candidates", {}).get("left_out"):
            self.stdout.write(f"left out by the lab's settings: {left_out_by_kind(left_out)}")
        if accepted := run.report.get("auto_accepted"):
            self.stdout.write(
                "accepted without review: "
                + ", ".join(f"{name} {n}" for name, n in accepted.items())
            )
        for name in ("citations", "stars"):
            if name in run.report:
                self.stdout.write(f"{name}: {run.report[name]}")
        if run.status == HarvestRun.Status.FAILED:
            raise CommandError(run.message)
