"""Import publications from BibTeX or Crossref JSON files, DOIs, or a member's ORCID works."""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from people.models import Person
from publications import importing
from publications.importing import ImportProblem, files

PROGRESS_FROM = 20  # records; shorter inputs finish before a bar would help


class Command(BaseCommand):
    help = (
        "Import publications. SOURCE is a .bib or Crossref .json file, or a DOI. By default "
        "one invalid record means nothing is written; every problem is listed."
    )
    client = importing.HttpClient()

    def add_arguments(self, parser):
        parser.add_argument("sources", nargs="*", metavar="SOURCE")
        parser.add_argument(
            "--orcid", action="append", default=[], metavar="SLUG",
            help="Also import the public ORCID works of the member with this slug.",
        )  # fmt: skip
        parser.add_argument("--dry-run", action="store_true", help="Show what would change.")
        parser.add_argument(
            "--skip-invalid", action="store_true", help="Write the valid records anyway."
        )
        parser.add_argument(
            "--take-source",
            action="store_true",
            help="Take the sources' values even for fields an admin has edited since the "
            "last import (by default those edits are kept and listed).",
        )

    def handle(
        self,
        *args,
        sources=(),
        orcid=(),
        dry_run=False,
        skip_invalid=False,
        take_source=False,
        **options,
    ):
        if not sources and not orcid:
            raise CommandError("Name at least one file, DOI or --orcid member.")
        records = []
        try:
            records += self._read(sources)
            for slug in orcid:
                person = Person.objects.filter(slug=slug).first()
                if person is None:
                    raise ImportProblem(f"No member has the slug “{slug}”.")
                records += importing.read_orcid_works(person, self.client, self._progress)
        except ImportProblem as problem:
            raise CommandError(str(problem)) from None
        plans = self._plan_with_progress(records, take_source)
        for plan in plans:
            self._report(plan)
        if dry_run:
            counts = {a: sum(p.action == a for p in plans) for a in importing.ACTIONS}
            self.stdout.write(
                "Dry run, nothing written: {new} new, {update} to update, {unchanged} "
                "unchanged, {error} failed".format(**counts)
            )
            if counts["error"]:
                raise CommandError("Some records cannot be imported (see above).")
            return
        summary = importing.apply(plans, skip_invalid=skip_invalid)
        self.stdout.write(("" if summary.written else "Nothing written: ") + str(summary))
        if summary.failed:
            hint = "" if skip_invalid else " Fix them, or use --skip-invalid to import the rest."
            raise CommandError(f"{summary.failed} record(s) could not be imported.{hint}")

    def _read(self, names):
        records = []
        for name in names:
            path = Path(name)
            if path.is_file():
                records += files.read_file_text(path.name, path.read_bytes())
            elif files.looks_like_doi(name):
                records.append(importing.fetch_doi(name, self.client))
            else:
                raise ImportProblem(f"{name} is neither a file nor a DOI.")
        return records

    def _plan_with_progress(self, records, take_source):
        progress = self._progress if len(records) >= PROGRESS_FROM else None
        return importing.plan(records, progress=progress, take_source=take_source)

    def _progress(self, done, total):
        width = 30
        filled = width * done // total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    def _report(self, plan):
        record = plan.record
        if plan.action == importing.ERROR:
            for problem in record.problems:
                self.stderr.write(f"{record.label}: {problem}")
            return
        note = f"{plan.action:>9}  {record.title[:70]}"
        if plan.changes:
            note += f"  ({', '.join(plan.changes)})"
        self.stdout.write(note)
        if plan.kept:
            self.stdout.write(
                f"           kept as stored: {', '.join(plan.kept)} (--take-source replaces them)"
            )
        if plan.new_venue is not None:
            self.stdout.write(f"           new venue: {plan.new_venue.short_name}")
        # what the preview shows: readings, fields kept with the paper, files, what was left
        for reading in record.readings:
            self.stdout.write(f"           read: {reading}")
        if record.source_fields:
            self.stdout.write(f"           kept with the paper: {', '.join(record.source_fields)}")
        for name in record.files:
            self.stdout.write(f"           file to upload: {name}")
        for dropped in record.dropped:
            self.stdout.write(f"           left out: {dropped}")
        for author in plan.ambiguous:
            names = " or ".join(p.name for p in author.candidates)
            self.stdout.write(
                f"           author “{author.display}” could be {names}: left unlinked"
            )
