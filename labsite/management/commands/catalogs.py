from django.core.management.base import BaseCommand, CommandError

from labsite import catalogs


class Command(BaseCommand):
    help = (
        "Keep the message catalogs in locale/: `update` adds new strings of the code and "
        "drops gone ones (translations kept), `compile` writes the .mo files Django reads, "
        "`check` fails when a string has no translation. No GNU gettext needed."
    )

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["update", "compile", "check"])

    def handle(self, *args, action, **options):
        if action == "update":
            for locale, count in catalogs.update().items():
                self.stdout.write(f"{catalogs.po_path(locale)}: {count} untranslated")
        elif action == "compile":
            for path in catalogs.compile_all():
                self.stdout.write(f"Wrote {path}")
        else:
            for locale in catalogs.languages():
                if untranslated := catalogs.missing(catalogs.read(locale)):
                    ids = "\n  ".join(str(m.id) for m in untranslated[:20])
                    raise CommandError(f"{len(untranslated)} untranslated in {locale}:\n  {ids}")
            self.stdout.write("Every string is translated.")
