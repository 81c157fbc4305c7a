"""The weekly e-mail telling each member which harvested works wait for their review, and
which the harvest accepted for them without review (each with its link to undo); a work is
named in one member's digest once, never twice."""

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext, ngettext

from harvest.models import Candidate, Source
from people.models import Person


def recipient(person: Person) -> str:
    """Their account's address, else the one on their profile, else "" (no digest)."""
    account = getattr(person.user, "email", "") if person.user_id else ""
    return account or person.email


def send_digests() -> list[tuple[Person, int]]:
    """Send every member with new open candidates, or works the harvest accepted for them
    since their last digest, their digest; returns (person, works named)."""
    sent = []
    waiting = Candidate.objects.open().values("people")
    accepted = Candidate.objects.auto_accepted().values("people")
    named = Person.objects.filter(Q(pk__in=waiting) | Q(pk__in=accepted))
    for person in named.select_related("user").order_by("pk"):
        address = recipient(person)
        new = list(Candidate.objects.open().for_person(person).exclude(notified=person))
        auto = list(
            Candidate.objects.auto_accepted()
            .for_person(person)
            .exclude(notified=person)
            .select_related("publication")
        )
        if not address or not (new or auto):
            continue
        sections = []
        if new:
            link = settings.SITE_URL + reverse("admin:harvest_candidate_changelist")
            lines = [f"- {c}\n  {settings.SITE_URL}{c.get_absolute_url()}" for c in new]
            sections.append(
                "The lab site found these works that may be yours. Accept them, merge them "
                "into a paper already listed, or say they are not yours:\n\n"
                + "\n".join(lines)
                + f"\n\nAll your works waiting for review: {link}\n"
            )
        if auto:
            names = dict(Source.choices)
            lines = [
                f"- {c} ({names.get(c.auto_accepted_from, c.auto_accepted_from)})\n  "
                + gettext("Undo: %(link)s")
                % {"link": settings.SITE_URL + reverse("admin:harvest_candidate_undo", args=[c.pk])}
                for c in auto
            ]
            sections.append(
                gettext(
                    "The harvest accepted these works for you without waiting for review, as "
                    "the lab's settings let it: the source named you by your own identifier. "
                    "Undo one to remove the paper and review the work yourself:"
                )
                + "\n\n"
                + "\n".join(lines)
                + "\n"
            )
        subject = (
            ngettext(
                "%(count)d new work found for you to review",
                "%(count)d new works found for you to review",
                len(new),
            )
            % {"count": len(new)}
            if new
            else ngettext(
                "%(count)d work accepted for you by the harvest",
                "%(count)d works accepted for you by the harvest",
                len(auto),
            )
            % {"count": len(auto)}
        )
        body = f"Hello {person.name},\n\n" + "\n".join(sections)
        with transaction.atomic():
            send_mail(subject, body, None, [address])
            for candidate in new + auto:
                candidate.notified.add(person)
        sent.append((person, len(new) + len(auto)))
    return sent
