"""Give a lab member a login: create or link their account and send a password-set link."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import send_mail
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from lab.groups import LAB_ADMIN_GROUP, LAB_MEMBER_GROUP
from people.models import Person

# Mail backends that only print or drop messages: the printed link is the delivery then.
NON_DELIVERING = ("console.EmailBackend", "dummy.EmailBackend")


class Command(BaseCommand):
    help = (
        "Create (or link) the login account of the member with this slug, as a Lab member, "
        "and print (and e-mail, when e-mail is set up) a one-time link to set a password."
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

    @transaction.atomic
    def handle(self, *args, slug, email, language, **options):
        try:
            validate_email(email)
        except Exception:
            raise CommandError(f"“{email}” is not an e-mail address.") from None
        person = Person.objects.filter(slug=slug).first()
        if person is None:
            raise CommandError(f"No member has the slug “{slug}”.")
        User = get_user_model()
        user = person.user
        if user is None:
            # Never take over an account that merely shares the address: it may be anyone's,
            # a superuser's included. Linking an existing account is a lab admin's decision.
            existing = User.objects.filter(Q(email__iexact=email) | Q(username=slug)).first()
            if existing is not None:
                raise CommandError(
                    f"An account “{existing.username}” with this e-mail or user name already "
                    f"exists. invite_member only creates new accounts; to give {person.name} "
                    "that one, link it on their page in the admin."
                )
            user = User(username=slug, email=email, is_staff=True)
            user.set_unusable_password()
            user.save()
        elif user.is_superuser or user.groups.filter(name=LAB_ADMIN_GROUP).exists():
            raise CommandError(
                f"{person.name}'s account “{user.username}” is a superuser or lab admin account; "
                "invite_member only sets up member accounts."
            )
        user.email, user.is_staff = email, True
        user.save(update_fields=["email", "is_staff"])
        user.groups.add(Group.objects.get(name=LAB_MEMBER_GROUP))
        if person.user_id != user.pk:
            person.user = user
            person.save(update_fields=["user"])
        link = password_set_link(user)
        self.stdout.write(
            f"{person.name} can log in as “{user.username}” after choosing a password here "
            f"(the link works once):\n\n    {link}\n"
        )
        if not settings.EMAIL_BACKEND.endswith(NON_DELIVERING):
            with translation.override(language):
                subject = _("Your account on the lab website")
                body = _(
                    "Hello %(name)s,\n\nChoose a password for your account “%(username)s” "
                    "here:\n\n%(link)s\n\nThen edit your profile at %(admin)s\n"
                ) % {
                    "name": person.name,
                    "username": user.username,
                    "link": link,
                    "admin": settings.SITE_URL + reverse("admin:index"),
                }
            send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [email])
            self.stdout.write(f"The link was also e-mailed to {email}.")


def password_set_link(user):
    """A link to Django's password-reset form; it stops working once the password is set."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    path = reverse("password_reset_confirm", kwargs={"uidb64": uid, "token": token})
    return f"{settings.SITE_URL}{path}"
