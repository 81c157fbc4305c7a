"""Lab members: who they are, their membership, and the forms their name is printed in."""

import re
import unicodedata

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.db import connections, models
from django.db.models.expressions import RawSQL
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from core import images
from core.identifiers import (
    ArxivAuthorField,
    DblpPidField,
    GitHubUserField,
    OpenAlexAuthorField,
    OrcidField,
    SemanticScholarAuthorField,
)
from core.languages import translated
from core.markup import DESCRIPTION_LIMIT, SUMMARY_LIMIT, text_limit
from core.names import initials, split_name  # split_name: re-exported for the apps
from core.partial_dates import PartialDateField, format_range, has_ended
from lab import sections
from lab.models import MemberRole

PHOTO_SIZES = (480, 192)  # profile header and team card, both at twice their CSS size


def shows_page(slug, is_published):
    """Whether the site shows the person's page: they are published, and on a personal site
    (PERSONAL_SITE) they are its owner, the only person it is about."""
    return bool(is_published) and (not settings.PERSONAL_SITE or slug == settings.PERSONAL_SITE)


class PersonQuerySet(models.QuerySet):
    def published(self):
        """People whose pages the site shows (`shows_page`): on a personal site, its owner."""
        shown = self.filter(is_published=True)
        return shown.filter(slug=settings.PERSONAL_SITE) if settings.PERSONAL_SITE else shown

    def alumni(self):
        """People whose membership end date has passed, or who have left on a date not known."""
        return self.filter(has_ended("member_until") | models.Q(has_left=True))

    def current(self):
        return self.exclude(has_ended("member_until") | models.Q(has_left=True))

    def with_rows_in(self, relations):
        """Annotate `has_<relation>` for each of `relations` (names of Person's reverse
        foreign keys, such as "news"): whether the person has any row there. Raw EXISTS
        clauses from the models' tables, as building an ORM subquery costs about what
        running it does, and a profile asks about a dozen relations."""
        quote = connections[self.db].ops.quote_name
        person = f"{quote(Person._meta.db_table)}.{quote(Person._meta.pk.column)}"
        flags = {}
        for name in relations:
            relation = Person._meta.get_field(name)
            table = quote(relation.related_model._meta.db_table)
            column = quote(relation.field.column)
            flags[f"has_{name}"] = RawSQL(
                f"EXISTS (SELECT 1 FROM {table} WHERE {table}.{column} = {person})",
                (),
                output_field=models.BooleanField(),
            )
        return self.annotate(**flags)


INTERESTS_MAX_LENGTH = 1000


# A CV's sections in the order grant offices and hiring committees read them (keys of the
# profile's sections, lab/sections.py); a member may put others first (Person.cv_sections).
CV_SECTIONS = sections.CV_ORDER


class Person(models.Model):
    Role = MemberRole

    name = models.CharField(
        max_length=200,
        help_text="Name in Latin script as the site shows it, e.g. “Teng Ma”.",
    )
    native_name = models.CharField(
        "native-script name",
        max_length=200,
        blank=True,
        help_text="Name in the person's own script, e.g. “马腾”; shown as “Teng Ma / 马腾”.",
    )
    native_name_lang = models.CharField(
        "language of native name",
        max_length=20,
        default="zh",
        help_text="Language code of the native-script name (zh, ja, ko, ru, …), "
        "so browsers choose the right font.",
    )
    slug = models.SlugField(
        unique=True,
        help_text="The end of the profile's address, e.g. teng-ma for /people/teng-ma/.",
    )
    name_variants = models.TextField(
        blank=True,
        validators=[text_limit(SUMMARY_LIMIT)],
        help_text="One per line: other ways this name is printed in author lists, e.g. "
        "“T. Ma” or “Ma, Teng”. The name above, its initials form and the native-script "
        "name are recognised without being listed.",
    )
    role = models.CharField(max_length=20, choices=Role.choices, default=Role.PHD)
    member_since = PartialDateField("member since", null=True, blank=True)
    member_until = PartialDateField(
        "member until",
        null=True,
        blank=True,
        help_text="Leave empty while the person is in the lab; once this date has passed they "
        "are listed among alumni. YYYY, YYYY-MM or YYYY-MM-DD.",
    )
    has_left = models.BooleanField(
        "has left the lab",
        default=False,
        help_text="For alumni whose leaving date is not known (“member until” says it when it "
        "is): listed among alumni.",
    )
    alumni_destination = models.CharField(
        "went on to",
        max_length=300,
        blank=True,
        help_text="For alumni: where they went, e.g. “Assistant Professor, KAIST”.",
    )
    # In English and Chinese side by side (title_en, title_zh_hans; core/languages.py).
    title = translated(
        models.CharField(
            "position title",
            max_length=200,
            blank=True,
            help_text="e.g. “Staff Engineer & Research Leader”.",
        )
    )
    affiliation = translated(
        models.CharField(max_length=200, blank=True, help_text="e.g. “Alibaba Apsara Lab”.")
    )
    tagline = translated(
        models.CharField(
            max_length=300,
            blank=True,
            help_text="One line under the name, e.g. “tl;dr: I wrote Mooncake Transfer Engine.”",
        )
    )
    bio = translated(
        models.TextField(
            blank=True,
            validators=[text_limit(DESCRIPTION_LIMIT)],
            help_text="Markdown: **bold**, *italic*, [a link](https://…), lists.",
        )
    )
    email = models.EmailField(
        blank=True,
        help_text="Where invitations and the lab's mail go; on the profile only when “Show the "
        "e-mail address” is ticked.",
    )
    show_email = models.BooleanField(
        "Show the e-mail address",
        default=False,
        help_text="On the profile and the CV, as a mailto link. Off unless the member or a lab "
        "admin turns it on: an invitation never publishes the address it was sent to.",
    )
    orcid = OrcidField(
        "ORCID iD",
        blank=True,
        help_text="e.g. 0000-0002-1825-0097. Used to recognise this person in imported papers.",
    )
    # Where the harvester looks for this person's new work (harvest/): each optional, each
    # checked against the form the service gives its ids; a pasted link is shortened to it.
    openalex_id = OpenAlexAuthorField(
        "OpenAlex author id",
        help_text="e.g. A5023888391, from the address of the person's page on openalex.org.",
    )
    dblp_pid = DblpPidField(
        "DBLP person id",
        help_text="e.g. 130/1022, from the person's dblp.org page (Share → persistent URL).",
    )
    semantic_scholar_id = SemanticScholarAuthorField(
        "Semantic Scholar author id",
        help_text="e.g. 1741101, the number at the end of the person's Semantic Scholar page.",
    )
    arxiv_author_id = ArxivAuthorField(
        "arXiv author id",
        help_text="e.g. ma_t_1, from the person's arXiv author page (arxiv.org/a/…).",
    )
    github_user = GitHubUserField(
        "GitHub user",
        help_text="e.g. kvcache-ai. (Stars are read from each project's own GitHub address.)",
    )
    research_interests = translated(
        models.TextField(
            "research interests",
            blank=True,
            validators=[MaxLengthValidator(INTERESTS_MAX_LENGTH)],
            help_text="One per line; a line may hold commas (“Agent harnesses, hardware, and "
            "infrastructure”).",
        )
    )
    now = models.TextField(
        "now / current focus",
        blank=True,
        validators=[text_limit(SUMMARY_LIMIT)],
        help_text="What this person is working on at the moment. Markdown.",
    )
    now_updated = PartialDateField(
        "current focus last updated",
        null=True,
        blank=True,
        help_text="YYYY, YYYY-MM or YYYY-MM-DD, as precisely as known. Shown beside the text "
        "so readers know how fresh it is.",
    )
    photo = images.SafeImageField(
        upload_to="people/photos/",
        blank=True,
        help_text="JPEG, PNG or WebP, up to 10 MB and 40 megapixels. It is turned upright, "
        "stripped of metadata (such as GPS location) and cropped square.",
    )
    photo_thumb = models.ImageField(upload_to="people/photos/", blank=True, editable=False)
    display_order = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Lower numbers come first within a role on the team page. Left empty, a "
        "new person goes after the members of their role.",
    )
    is_published = models.BooleanField(
        "published",
        default=True,
        help_text="Unpublished people have no public page and are left out of every list.",
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="person",
        help_text="The login account that may edit this profile.",
    )
    cv_sections = models.CharField(
        "CV section order",
        max_length=200,
        blank=True,
        help_text="The CV's sections in the order you want them, comma-separated: "
        + ", ".join(CV_SECTIONS)
        + ". Those left out follow in that order, which an empty field keeps.",
    )
    invited = models.DateTimeField(
        "invitation sent",
        null=True,
        blank=True,
        editable=False,
        help_text="When the last invitation to choose a password was sent (Invite by email).",
    )

    objects = PersonQuerySet.as_manager()
    history = HistoricalRecords()

    class Meta:
        ordering = ["display_order", "name"]
        verbose_name_plural = "people"
        constraints = [
            models.UniqueConstraint(
                fields=["orcid"],
                condition=~models.Q(orcid=""),
                name="person_orcid_unique_when_set",
            ),
        ]

    def __str__(self):
        return f"{self.name} / {self.native_name}" if self.native_name else self.name

    def save(self, *args, **kwargs):
        if self.display_order is None:
            last = Person.objects.filter(role=self.role).exclude(pk=self.pk)
            highest = last.aggregate(models.Max("display_order"))["display_order__max"]
            self.display_order = 0 if highest is None else highest + 1
        old = set()
        if self.photo and not self.photo._committed:
            old = images.replaced_files(self, "photo", "photo_thumb")
            variants = images.square_variants(images.open_upload(self.photo), PHOTO_SIZES)
            self.photo, self.photo_thumb = (variants[size] for size in PHOTO_SIZES)
        elif not self.photo:
            if self.photo_thumb:
                old = images.replaced_files(self, "photo", "photo_thumb")
            self.photo_thumb = None
        super().save(*args, **kwargs)
        images.delete_after_commit(self.photo.storage, old)

    def get_absolute_url(self):
        """Their profile's address: the home page on a personal site (PERSONAL_SITE)."""
        if self.slug == settings.PERSONAL_SITE:
            return reverse("home")
        return reverse("people:detail", kwargs={"slug": self.slug})

    @property
    def public_email(self):
        """The address the profile and the CV show: only one someone chose to show."""
        return self.email if self.show_email else ""

    @property
    def has_page(self):
        """Whether the site shows their page, so that their name may link to it."""
        return shows_page(self.slug, self.is_published)

    def validate_constraints(self, exclude=None):
        # The ORCID is unique where one is set: a person without one keeps the rule as it
        # stands, and is spared the query (in a savepoint) that Django's check of it makes.
        if not self.orcid:
            exclude = {*(exclude or ()), "orcid"}
        super().validate_constraints(exclude)

    def clean(self):
        if self.member_since and self.member_until and self.member_until < self.member_since:
            raise ValidationError(
                {"member_until": _("The membership cannot end before it starts.")}
            )
        unknown = [k for k in self._cv_sections_chosen() if k not in CV_SECTIONS]
        if unknown:
            raise ValidationError(
                {
                    "cv_sections": _("No CV section is called “%(name)s”; they are: %(names)s.")
                    % {"name": unknown[0], "names": ", ".join(CV_SECTIONS)}
                }
            )

    def _cv_sections_chosen(self):
        return [key.strip().casefold() for key in self.cv_sections.split(",") if key.strip()]

    def cv_section_order(self):
        """Every CV section's key: those the member put first in their order, then the
        rest in the CV's default order (CV_SECTIONS)."""
        chosen = [key for key in self._cv_sections_chosen() if key in CV_SECTIONS]
        return list(dict.fromkeys([*chosen, *CV_SECTIONS]))

    @property
    def initials(self):
        """The avatar's letters: the first and the last part's ("TM" for "Teng Ma")."""
        letters = initials(self.name)
        return "".join(letters[:1] + letters[1:][-1:])

    @property
    def is_alumnus(self):
        return self.has_left or (
            self.member_until is not None and self.member_until.last_day() < timezone.localdate()
        )

    @property
    def membership_period(self):
        return format_range(self.member_since, self.member_until)

    def interests(self):
        return [line.strip() for line in self.research_interests.splitlines() if line.strip()]

    def name_forms(self):
        """Every printed form this person's name is recognised by, normalized for matching."""
        forms = {self.name, self.native_name, *self.name_variants.splitlines()}
        given, family = split_name(self.name)
        if given and family:
            spaced = " ".join(initials(given))
            forms |= {
                f"{given} {family}",  # printed without its suffix ("King" for "King Jr.")
                f"{family}, {given}",
                f"{spaced} {family}",
                f"{spaced.replace(' ', '')} {family}",
                f"{family}, {spaced}",
            }
        return {normalize_name(f) for f in forms if f and f.strip()}


def normalize_name(name):
    """Lowercase, accents and dots removed, "Family, Given" kept: "T. Ma" → "t ma"."""
    decomposed = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in decomposed if not unicodedata.combining(c))
    text = re.sub(r"[.\u00b7]", " ", text.casefold())
    return re.sub(r"\s+", " ", text).strip()
