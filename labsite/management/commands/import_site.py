"""manage.py import_site PATH: a whole al-folio or Hugo Blox site into the lab."""

from django.core.management.base import BaseCommand, CommandError

from labsite.site_import import SiteProblem, import_site, open_site


class Command(BaseCommand):
    help = (
        "Bring in an al-folio (Jekyll) or Hugo Blox site: its people and their profiles, "
        "publications, news, projects, talks, pages and posts, and its name. PATH is the "
        "site's folder or a ZIP of it. Without --apply, says what it would do and writes "
        "nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="the site's folder, or a ZIP file of it")
        parser.add_argument("--apply", action="store_true", help="write it (else a preview)")
        parser.add_argument(
            "--name", default="", help="the owner's name, when the site does not give it"
        )

    def handle(self, *args, path, apply, name, verbosity, **options):
        try:
            with open_site(path, name) as site:
                report = import_site(site, apply=apply)
        except SiteProblem as error:
            raise CommandError(f"{error} Nothing was imported.") from None
        self.stdout.write(f"{site.generator} site: {report.site.root.name}")
        for kind, counts in report.counts.items():
            parts = ", ".join(f"{n} {action}" for action, n in counts.items())
            self.stdout.write(f"  {kind}: {parts}")
        if verbosity > 1:
            for line in report.lines:
                self.stdout.write(f"    {line}")
        if report.groups:
            self.stdout.write("The site's groups (role, alumni):")
            for group, mapping in report.groups.items():
                left = ", alumni" if mapping.alumni else ""
                role = mapping.role or "not said" if mapping.person else "not people"
                size = report.group_sizes[group]
                self.stdout.write(f"  {group}: {role}{left} ({size} people)")
        for title, lines in (
            ("Not imported (labsite has no place for it):", report.notes),
            ("Left out (the template's samples):", report.site.leftovers),
            ("Skipped (could not be read or kept; the rest comes in):", report.skipped),
            ("To complete (imported without what the site does not say):", report.to_complete),
        ):
            if lines:
                self.stdout.write(title)
                for line in lines:
                    self.stdout.write(f"  - {line}")
        if report.written:
            self.stdout.write(f"Imported: {report.changes} rows new or updated.")
        else:
            self.stdout.write("Preview only: run again with --apply to import.")
