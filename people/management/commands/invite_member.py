"""Give a lab member a login: create or link their account and send a password-set link."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from people.invitations import InvitationRefused, invite
from people.models import Person

# Mail backends that only print or drop messages: the printed link is the delivery then.
NON_DELIVERING = ("console.EmailBackend", "dummy.EmailBackend")


class Command(BaseCommand):
    help = (
        "Create (or link) the login account of the member with this slug, as a Lab member, "
        "and print (and e-mail, when e-mail is set up) a one-time link to set a password. "
        "The admin's “Invite by email” action does the same."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("email")
        parser.add_argument(
            "--language",
            choices=[code for code, _name in settings.LANGUAGES],
            default=settings.LANGUAGE_CODE,
            help="The language of the e-mail (default: English).",
        )

    def handle(self, *args, slug, email, language, **options):
        person = Person.objects.filter(slug=slug).first()
        if person is None:
            raise CommandError(f"No member has the slug “{slug}”.")
        try:
            link = invite(person, email, language=language)
        except InvitationRefused as refusal:
            raise CommandError(str(refusal)) from None
        person.refresh_from_db()
        self.stdout.write(
            f"{person.name} can log in as “{person.user.username}” after choosing a password "
            f"here (the link works once):\n\n    {link}\n"
        )
        if not settings.EMAIL_BACKEND.endswith(NON_DELIVERING):
            self.stdout.write(f"The link was also e-mailed to {email}.")
