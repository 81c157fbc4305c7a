"""The lab's openings (PhD places, postdocs, internships, staff posts): listed until their
deadline, then kept (history, backups, their own page) but no longer listed."""

from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.languages import require_one, translated
from core.markup import BODY_LIMIT, DESCRIPTION_LIMIT, text_limit
from website.models.written import Written, WrittenQuerySet


class OpeningQuerySet(WrittenQuerySet):
    # published(): open or past their deadline (each keeps its page)

    def open(self, today=None):
        """Published openings whose deadline, if any, is today or later and that were not
        closed on or before today (the lab's local day): what the openings list and the
        home's "Join us" show."""
        today = today or timezone.localdate()
        return self.published().filter(
            Q(deadline__isnull=True) | Q(deadline__gte=today),
            Q(closed_on__isnull=True) | Q(closed_on__gt=today),
        )


class Opening(Written):
    class EmploymentType(models.TextChoices):
        """schema.org's employmentType values, as Google's job listings read them."""

        FULL_TIME = "FULL_TIME", _("Full time")
        PART_TIME = "PART_TIME", _("Part time")
        TEMPORARY = "TEMPORARY", _("Fixed term")
        CONTRACTOR = "CONTRACTOR", _("Contractor")
        INTERN = "INTERN", _("Internship")
        VOLUNTEER = "VOLUNTEER", _("Volunteer")
        OTHER = "OTHER", _("Other")

    class Kind(models.TextChoices):
        PHD = "phd", _("PhD student")
        MASTERS = "masters", _("Master's student")
        POSTDOC = "postdoc", _("Postdoc")
        RESEARCH_STAFF = "staff", _("Research staff")
        ENGINEER = "engineer", _("Engineer")
        INTERN = "intern", _("Intern")
        VISITOR = "visitor", _("Visitor")
        OTHER = "other", _("Other")

    slug = models.SlugField(
        max_length=100,
        blank=True,
        help_text="The last part of the opening's address: “phd-memory-systems” gives "
        "/openings/phd-memory-systems/. Leave empty to make one from the title.",
    )
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.PHD)
    employment_type = models.CharField(
        "employment",
        max_length=20,
        choices=EmploymentType.choices,
        default=EmploymentType.FULL_TIME,
        help_text="As search engines' job listings filter it: a PhD place or a postdoc is "
        "usually full time; an internship left at full time is saved as an internship.",
    )
    description = translated(
        models.TextField(
            blank=True,
            validators=[text_limit(BODY_LIMIT)],
            help_text="Markdown: the work, who it suits, what the lab offers. Search engines "
            "show this as the job's description.",
        )
    )
    how_to_apply = translated(
        models.TextField(
            "how to apply",
            blank=True,
            validators=[text_limit(DESCRIPTION_LIMIT)],
            help_text="Markdown: what to send, to whom, by when. [Write to us](mailto:…).",
        )
    )
    posted = models.DateField(
        default=timezone.localdate, help_text="The day the opening was first posted."
    )
    deadline = models.DateField(
        null=True,
        blank=True,
        help_text="The last day to apply. The opening is listed until that day, then keeps "
        "its page but leaves the list. Empty: open until unpublished.",
    )
    closed_on = models.DateField(
        "closed on",
        null=True,
        blank=True,
        help_text="The day applications closed before the deadline (the place is filled): "
        "from that day the opening leaves the list and its page says it is closed. Today "
        "closes it now; the posting date stays as it was.",
    )
    city = translated(
        models.CharField(
            max_length=100,
            help_text="Where the work is, as search engines' job listings show it: "
            "“Beijing”, “北京”. The Chinese pages show the English one when the Chinese "
            "is empty.",
        ),
        required=True,
    )
    street_address = translated(
        models.CharField(
            "street address",
            max_length=200,
            blank=True,
            help_text="The building and street where the work is, when it is not at the "
            "lab's own address: “1 Innovation Road, Yuhang”. Empty: the lab's address when "
            "it names the opening's city, else the city alone.",
        )
    )
    country = models.CharField(
        max_length=2,
        validators=[RegexValidator(r"^[A-Z]{2}$", _("A two-letter country code: CN, US, DE."))],
        help_text="The country's two-letter code: CN, US, DE.",
    )
    remote = models.BooleanField(
        "may work remotely",
        default=False,
        help_text="Tick when the work may be done from anywhere in the country.",
    )

    objects = OpeningQuerySet.as_manager()

    class Meta:
        ordering = ["deadline", "-posted", "pk"]
        constraints = [
            # a visit looks the opening up by its slug (the unique index serves it)
            models.UniqueConstraint(fields=["slug"], name="opening_slug_unique"),
            models.CheckConstraint(condition=~Q(slug=""), name="opening_has_a_slug"),
            models.CheckConstraint(
                condition=Q(deadline__isnull=True) | Q(deadline__gte=models.F("posted")),
                name="opening_deadline_after_posting",
            ),
            models.CheckConstraint(
                condition=Q(closed_on__isnull=True) | Q(closed_on__gte=models.F("posted")),
                name="opening_closed_after_posting",
            ),
        ]

    def save(self, *args, **kwargs):
        if self.kind == self.Kind.INTERN and self.employment_type == self.EmploymentType.FULL_TIME:
            self.employment_type = self.EmploymentType.INTERN  # the default, made to fit
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("openings:detail", kwargs={"slug": self.slug})

    def clean(self):
        errors = {}
        for name, message in [
            ("title", _("Give the opening's title, in English or Chinese.")),
            (
                "description",
                _("Describe the opening, in English or Chinese: search engines need it."),
            ),
        ]:
            try:
                require_one(self, name, message)
            except ValidationError as error:
                errors.update(error.message_dict)
        if self.deadline and self.posted and self.deadline < self.posted:
            errors["deadline"] = [_("The deadline comes before the day it was posted.")]
        if self.closed_on and self.posted and self.closed_on < self.posted:
            errors["closed_on"] = [_("It closes before the day it was posted.")]
        self.fill_slug()
        if self.slug_taken():
            errors["slug"] = [_("Another opening has this address.")]
        if errors:
            raise ValidationError(errors)

    @property
    def is_open(self):
        """Whether the deadline, if any, has not passed and the opening was not closed on
        or before today (the lab's local day)."""
        today = timezone.localdate()
        return (self.deadline is None or self.deadline >= today) and (
            self.closed_on is None or self.closed_on > today
        )

    @property
    def closed_date(self):
        """The day applications closed (were closed early, or the deadline), else None."""
        today = timezone.localdate()
        ends = [self.closed_on] if self.closed_on and self.closed_on <= today else []
        if self.deadline and self.deadline < today:
            ends.append(self.deadline)
        return min(ends) if ends else None
