"""Giving a lab member a login: one account, in the Lab member group, linked to their
person, and a one-time link to choose a password, e-mailed (printed in development). The
admin's "Invite by email" action and `manage.py invite_member` both call `invite`."""

import smtplib

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from lab.groups import LAB_ADMIN_GROUP, LAB_MEMBER_GROUP
from people.models import Person


class InvitationRefused(Exception):
    """The invitation was not sent; the message says why, for the lab admin."""


def invite(person: Person, email: str = "", *, language: str = settings.LANGUAGE_CODE) -> str:
    """Create (or reuse) `person`'s member account with `email` (else their profile's), send
    the link to choose a password, record when, and return the link. Sending again is
    allowed until they choose a password (a new link; the earlier one no longer works once a
    password is chosen); an account that has a password or has signed in is never reset.

    The account is committed first and the mail sent after (within EMAIL_TIMEOUT): a slow
    mail server holds no transaction, and one that refuses leaves the member not marked
    invited, and the lab admin told (InvitationRefused)."""
    with transaction.atomic():
        user = _member_account(person, email)
    link = password_set_link(user)
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
        try:
            send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email])
        except (OSError, smtplib.SMTPException) as error:
            raise InvitationRefused(
                _(
                    "The mail server did not take the invitation to %(email)s (%(error)s): "
                    "%(name)s is not invited; try again later."
                )
                % {"email": user.email, "error": error, "name": person.name}
            ) from None
    person.invited = timezone.now()
    person.save(update_fields=["invited"])
    return link


def _member_account(person: Person, email: str):
    """`person`'s member account with `email`, made or brought up to date (not yet marked
    invited); InvitationRefused when no account may be."""
    email = (email or person.email).strip()
    if not email:
        raise InvitationRefused(
            _("%(name)s has no e-mail address: add one on their page, then invite them.")
            % {"name": person.name}
        )
    try:
        validate_email(email)
    except ValidationError:
        message = _("“%(email)s” is not an e-mail address.") % {"email": email}
        raise InvitationRefused(message) from None
    User = get_user_model()
    user = person.user
    if user is None:
        # Never take over an account that merely shares the address or the name: it may be
        # anyone's, a superuser's included. Linking one is a lab admin's decision.
        existing = User.objects.filter(Q(email__iexact=email) | Q(username=person.slug)).first()
        if existing is not None:
            raise InvitationRefused(
                _(
                    "An account “%(username)s” with this e-mail or user name already exists; "
                    "to give %(name)s that one, choose it as their login account on their page."
                )
                % {"username": existing.username, "name": person.name}
            )
        user = User(username=person.slug, email=email, is_staff=True)
        user.set_unusable_password()
        user.save()
    elif user.is_superuser or user.groups.filter(name=LAB_ADMIN_GROUP).exists():
        raise InvitationRefused(
            _(
                "%(name)s's account “%(username)s” is a superuser or lab admin account; "
                "invitations only set up member accounts."
            )
            % {"name": person.name, "username": user.username}
        )
    elif user.last_login is not None or user.has_usable_password():
        # A link to choose a password is a password reset: sent for an account its member
        # already uses, it would hand that account to whoever reads the address on the
        # profile (which a lab admin may have changed). Their own password stays theirs.
        raise InvitationRefused(
            _(
                "%(name)s already has a password for the account “%(username)s”: an invitation "
                "would reset it, so none was sent. If they have forgotten it, a lab admin can "
                "set a new one on the account's page."
            )
            % {"name": person.name, "username": user.username}
        )
    user.email, user.is_staff = email, True
    user.save(update_fields=["email", "is_staff"])
    user.groups.add(Group.objects.get(name=LAB_MEMBER_GROUP))
    person.user = user
    person.save(update_fields=["user"])
    return user


def password_set_link(user) -> str:
    """A link to Django's password-reset form; it stops working once the password is set."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    path = reverse("password_reset_confirm", kwargs={"uidb64": uid, "token": token})
    return f"{settings.SITE_URL}{path}"
