"""Take away the demo lab: exactly the rows `load_demo` made, with their files and history."""

from django.core.management.base import BaseCommand

from labsite import demo_rows


class Command(BaseCommand):
    help = (
        "Remove the demo lab: every row load_demo made (people, papers, talks, awards, pages, "
        "posts, openings, themes, courses, home sections, menu items), their files and their "
        "history. Rows a person has edited since, or that rows of the lab's own still need, "
        "stay and are named."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="Say what would go and what stays; change nothing.",
        )

    def handle(self, *args, dry_run=False, **options):
        plan = demo_rows.removal_plan() if dry_run else demo_rows.remove()
        if not plan.counts and not plan.kept:
            self.stdout.write("No demo rows are left: nothing was removed.")
            return
        verb = "Would remove" if dry_run else "Removed"
        self.stdout.write(self.style.SUCCESS(f"{verb} the demo lab: {plan.summary()}."))
        for obj, reason in plan.kept:
            self.stdout.write(f"Kept {obj._meta.verbose_name} “{obj}”: {reason}.")
