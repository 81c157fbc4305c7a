"""The weekly e-mail telling each member which harvested works wait for their review; a
work is named in one member's digest once, never twice."""

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils.translation import ngettext

from harvest.models import Candidate
from people.models import Person


def recipient(person: Person) -> str:
    """Their account's address, else the one on their profile, else "" (no digest)."""
    account = getattr(person.user, "email", "") if person.user_id else ""
    return account or person.email


def send_digests() -> list[tuple[Person, int]]:
    """Send every member with new open candidates their digest; returns (person, count)."""
    sent = []
    waiting = Candidate.objects.open().values("people")
    for person in Person.objects.filter(pk__in=waiting).select_related("user").order_by("pk"):
        address = recipient(person)
        new = list(Candidate.objects.open().for_person(person).exclude(notified=person))
        if not address or not new:
            continue
        link = settings.SITE_URL + reverse("admin:harvest_candidate_changelist")
        lines = [f"- {c}\n  {settings.SITE_URL}{c.get_absolute_url()}" for c in new]
        subject = ngettext(
            "%(count)d new work found for you to review",
            "%(count)d new works found for you to review",
            len(new),
        ) % {"count": len(new)}
        body = (
            f"Hello {person.name},\n\nThe lab site found these works that may be yours. Accept "
            f"them, merge them into a paper already listed, or say they are not yours:\n\n"
            + "\n".join(lines)
            + f"\n\nAll your works waiting for review: {link}\n"
        )
        with transaction.atomic():
            send_mail(subject, body, None, [address])
            for candidate in new:
                candidate.notified.add(person)
        sent.append((person, len(new)))
    return sent
