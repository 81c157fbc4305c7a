"""Lab members, their public profile, the sections of that profile they own, and the lab's
settings (one row every app reads: the lab's name, the team page's order, author-list style)."""

import datetime
import re
import unicodedata

from asgiref.local import Local
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.signals import request_started
from django.core.validators import MaxLengthValidator
from django.db import connections, models
from django.db.models.expressions import RawSQL
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from core import images
from core.identifiers import OrcidField
from core.languages import translated
from core.names import initials
from core.partial_dates import PartialDateField, format_range, has_ended
from core.weblinks import WebURLField

PHOTO_SIZES = (480, 192)  # profile header and team card, both at twice their CSS size


def split_name(name):
    """("Teng", "Ma") from "Teng Ma", ("Jan Hendrik", "Kim") from "Jan Hendrik Kim": the last
    word is the family name, as author lists print Latin names. ("", "Ma") for one word."""
    given, _, family = name.strip().rpartition(" ")
    return given.strip(), family


class PersonQuerySet(models.QuerySet):
    def published(self):
        return self.filter(is_published=True)

    def alumni(self):
        """People whose membership end date has passed."""
        return self.filter(has_ended("member_until"))

    def current(self):
        return self.exclude(has_ended("member_until"))

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


class Person(models.Model):
    class Role(models.TextChoices):
        PI = "pi", _("Principal investigator")
        FACULTY = "faculty", _("Faculty")
        STAFF = "staff", _("Research staff")
        POSTDOC = "postdoc", _("Postdoc")
        PHD = "phd", _("PhD student")
        MASTERS = "masters", _("Master's student")
        UNDERGRAD = "undergrad", _("Undergraduate")
        INTERN = "intern", _("Intern")
        VISITOR = "visitor", _("Visitor")

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
            blank=True, help_text="Markdown: **bold**, *italic*, [a link](https://…), lists."
        )
    )
    email = models.EmailField(blank=True, help_text="Shown on the profile as a mailto link.")
    orcid = OrcidField(
        "ORCID iD",
        blank=True,
        help_text="e.g. 0000-0002-1825-0097. Used to recognise this person in imported papers.",
    )
    research_interests = models.TextField(
        blank=True,
        validators=[MaxLengthValidator(INTERESTS_MAX_LENGTH)],
        help_text="One per line; a line may hold commas (“Agent harnesses, hardware, and "
        "infrastructure”).",
    )
    now = models.TextField(
        "now / current focus",
        blank=True,
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
        return reverse("people:detail", kwargs={"slug": self.slug})

    def clean(self):
        if self.member_since and self.member_until and self.member_until < self.member_since:
            raise ValidationError(
                {"member_until": _("The membership cannot end before it starts.")}
            )

    @property
    def initials(self):
        """The avatar's letters: the first and the last part's ("TM" for "Teng Ma")."""
        letters = initials(self.name)
        return "".join(letters[:1] + letters[1:][-1:])

    @property
    def is_alumnus(self):
        return (
            self.member_until is not None and self.member_until.last_day() < datetime.date.today()
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


class ProfileSection(models.Model):
    """Rows a person owns on their profile: one person, an admin-set order."""

    person = models.ForeignKey(Person, on_delete=models.CASCADE)
    order = models.PositiveSmallIntegerField(
        default=0,
        help_text="Lower numbers come first; rows with the same number keep the section's own "
        "order (newest first where the rows have dates, else as entered).",
    )
    history = HistoricalRecords(inherit=True)

    class Meta:
        abstract = True


class Link(ProfileSection):
    class Kind(models.TextChoices):
        SCHOLAR = "scholar", _("Google Scholar")
        GITHUB = "github", _("GitHub")
        LINKEDIN = "linkedin", _("LinkedIn")
        HOMEPAGE = "homepage", _("Homepage")
        DBLP = "dblp", _("DBLP")
        X = "x", _("X / Twitter")
        OTHER = "other", _("Other")

    kind = models.CharField(max_length=20, choices=Kind.choices)
    label = models.CharField(
        max_length=100, blank=True, help_text="Leave empty to use the kind's name."
    )
    url = WebURLField(
        "URL",
        help_text="Required: the profile shows each link as a button to follow, and one "
        "without an address would lead nowhere. Writing whose address you do not know goes "
        "under Writing, which needs none.",
    )

    class Meta:
        ordering = ["person", "order", "pk"]
        default_related_name = "links"

    def __str__(self):
        return self.display_label

    @property
    def display_label(self):
        return self.label or self.get_kind_display()


class NewsItemQuerySet(models.QuerySet):
    def published(self):
        """Published news that is lab-wide or about a published person."""
        return self.filter(is_published=True).filter(
            models.Q(person__isnull=True) | models.Q(person__is_published=True)
        )


class NewsItem(models.Model):
    """A dated line of news: about one person (shown on their profile) or the whole lab."""

    person = models.ForeignKey(
        Person,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="news",
        help_text="Leave empty for lab-wide news.",
    )
    date = PartialDateField()
    text = translated(
        models.TextField(help_text="One or two sentences. Markdown links: [text](https://…)."),
        required=True,
    )
    is_published = models.BooleanField("published", default=True)

    objects = NewsItemQuerySet.as_manager()
    history = HistoricalRecords()

    class Meta:
        ordering = ["-date", "-pk"]
        verbose_name = "news item"
        indexes = [
            # the /news/ page and the home page: newest published news first
            models.Index(fields=["is_published", "-date"], name="news_published_date"),
        ]

    def __str__(self):
        return f"{self.date}: {self.text[:60]}"


class Education(ProfileSection):
    degree = models.CharField(
        max_length=200, help_text="e.g. “Ph.D. in Computer Science” or “Visiting Ph.D. Student”."
    )
    institution = models.CharField(max_length=200, blank=True)
    department = models.CharField(
        max_length=200, blank=True, help_text="Department, school or research group."
    )
    location = models.CharField(max_length=200, blank=True)
    start = PartialDateField(null=True, blank=True)
    end = PartialDateField(null=True, blank=True, help_text="Leave empty if ongoing.")
    advisors = models.ManyToManyField(
        Person,
        blank=True,
        related_name="advisees",
        help_text="Advisors who have a profile here; they are linked.",
    )
    advisor_names = models.CharField(
        "other advisors",
        max_length=300,
        blank=True,
        help_text="Advisors without a profile here, as printed, e.g. “Prof. Yongwei Wu”.",
    )
    description = models.TextField(blank=True, help_text="Markdown.")

    class Meta:
        ordering = ["person", "order", "-start"]
        verbose_name_plural = "education"
        default_related_name = "education"

    def __str__(self):
        return ", ".join(part for part in (self.degree, self.institution) if part)

    @property
    def period(self):
        return format_range(self.start, self.end)

    # What the profile's timeline shows (people/sections/_timeline.html), as for Experience.
    @property
    def heading(self):
        return self.degree

    @property
    def organization_name(self):
        return self.institution

    @property
    def detail(self):
        return " · ".join(p for p in (self.department, self.location) if p)


class Experience(ProfileSection):
    title = models.CharField(
        max_length=200, blank=True, help_text="e.g. “Staff Engineer (P8)”; empty if not stated."
    )
    organization = models.CharField(
        max_length=200, blank=True, help_text="The employer; empty if not stated."
    )
    unit = models.CharField(max_length=200, blank=True, help_text="Team, group or department.")
    location = models.CharField(max_length=200, blank=True)
    start = PartialDateField(null=True, blank=True)
    end = PartialDateField(null=True, blank=True, help_text="Leave empty if current.")
    description = models.TextField(blank=True, help_text="Markdown.")

    class Meta:
        ordering = ["person", "order", "-start"]
        verbose_name_plural = "experience"
        default_related_name = "experience"

    def __str__(self):
        return f"{self.title}, {self.organization}"

    @property
    def period(self):
        return format_range(self.start, self.end)

    def clean(self):
        if not self.title and not self.organization:
            raise ValidationError(_("Give the job title, the employer, or both."))

    # What the profile's timeline shows (people/sections/_timeline.html), as for Education:
    # the title at the employer, or whichever of the two is known.
    @property
    def heading(self):
        return self.title or self.organization

    @property
    def organization_name(self):
        return self.organization if self.title else ""

    @property
    def detail(self):
        return " · ".join(p for p in (self.unit, self.location) if p)


class Service(ProfileSection):
    role = models.CharField(
        max_length=300, help_text="e.g. “Program committee member” or “Reviewer”."
    )
    organization = models.CharField(
        max_length=300, blank=True, help_text="Conference, journal or committee."
    )
    url = WebURLField("URL", blank=True)
    start = PartialDateField(null=True, blank=True)
    end = PartialDateField(null=True, blank=True)

    class Meta:
        ordering = ["person", "order", "-start"]
        verbose_name = verbose_name_plural = "academic service"
        default_related_name = "service"

    def __str__(self):
        return f"{self.role}, {self.organization}" if self.organization else self.role

    @property
    def period(self):
        if self.start and not self.end:
            return str(self.start)
        return format_range(self.start, self.end)


class Project(ProfileSection):
    """A project or open-source work, with an optional hand-read figure such as stars."""

    name = translated(models.CharField(max_length=200), required=True)
    url = WebURLField("URL", blank=True)
    role = models.CharField(
        max_length=100, blank=True, help_text="e.g. Maintainer, Committer, Contributor, Lead."
    )
    role_note = models.CharField(
        max_length=200,
        blank=True,
        help_text="A few words beside the role, e.g. “PyTorch Foundation Project” or “6K+ LOC”.",
    )
    summary = translated(models.TextField(blank=True, help_text="Markdown."))
    tags = models.CharField(max_length=300, blank=True, help_text="Comma-separated.")
    figure = models.CharField(
        max_length=40, blank=True, help_text="A figure read by hand, e.g. “5K+”."
    )
    figure_label = models.CharField(
        max_length=60, blank=True, help_text="What the figure counts, e.g. “GitHub stars”."
    )
    figure_source = WebURLField(max_length=500, blank=True, help_text="Where the figure was read.")
    figure_read_on = PartialDateField(
        null=True, blank=True, help_text="When the figure was read, as precisely as known."
    )

    class Meta:
        ordering = ["person", "order", "pk"]
        default_related_name = "projects"

    def __str__(self):
        return self.name

    def tag_list(self):
        return [t.strip() for t in self.tags.split(",") if t.strip()]


class ProjectResult(models.Model):
    """What a project achieved, as data: "5,126 tok/s per GPU", "+46.7% throughput"."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="results")
    value = models.CharField(max_length=40, help_text="As stated, e.g. “5,126”, “+46.7%”, “4.9×”.")
    measure = models.CharField(
        max_length=200, help_text="What it measures, e.g. “tok/s per GPU in decoding”."
    )
    context = models.CharField(
        "baseline or context",
        max_length=200,
        blank=True,
        help_text="What it is compared with or where it holds, e.g. “vs. vLLM on 8×H800”.",
    )
    date = PartialDateField(
        null=True, blank=True, help_text="When it was measured or reported, as precisely as known."
    )
    source_url = WebURLField("source", blank=True, help_text="Where the result is reported.")
    order = models.PositiveSmallIntegerField(default=0, help_text="Lower numbers come first.")
    history = HistoricalRecords()

    class Meta:
        ordering = ["project", "order", "pk"]
        verbose_name = "result"

    def __str__(self):
        return f"{self.value} {self.measure}"


class Contribution(ProfileSection):
    """A contribution to someone else's open-source project: a pull request or patch."""

    class Status(models.TextChoices):
        MERGED = "merged", _("Merged")
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")

    project = models.CharField(max_length=200)
    title = models.CharField(max_length=300)
    url = WebURLField("URL", blank=True)
    status = models.CharField(
        max_length=10,
        choices=Status.choices,
        blank=True,
        help_text="Leave empty when the source does not say; the page then shows no status.",
    )
    date = PartialDateField(null=True, blank=True)

    class Meta:
        ordering = ["person", "order", "-date"]
        verbose_name = "open-source contribution"
        default_related_name = "contributions"

    def __str__(self):
        return f"{self.project}: {self.title}"


class Writing(ProfileSection):
    """An article written elsewhere: a blog post, an essay, a column."""

    title = models.CharField(max_length=300)
    outlet = models.CharField(max_length=200, blank=True, help_text="e.g. “LMSYS Blog”.")
    url = WebURLField("URL", blank=True)
    date = PartialDateField(null=True, blank=True)
    summary = models.TextField(blank=True, help_text="Markdown.")

    class Meta:
        ordering = ["person", "order", "-date"]
        verbose_name_plural = "writing"
        default_related_name = "writing"

    def __str__(self):
        return self.title


class ReportedFigure(ProfileSection):
    """A figure typed in by hand (a Scholar citation total), with where and when it was read."""

    label = models.CharField(max_length=60, help_text="e.g. “Citations”, “h-index”.")
    value = models.CharField(max_length=40, help_text="As read, e.g. “680+”.")
    source = models.CharField(max_length=100, help_text="Where it was read, e.g. “Google Scholar”.")
    source_url = WebURLField(blank=True)
    read_on = PartialDateField(
        null=True, blank=True, help_text="When it was read, as precisely as known."
    )

    class Meta:
        ordering = ["person", "order", "pk"]
        verbose_name = "figure read by hand"
        verbose_name_plural = "figures read by hand"
        default_related_name = "reported_figures"

    def __str__(self):
        read = f", {self.read_on}" if self.read_on else ""
        return f"{self.label}: {self.value} ({self.source}{read})"


class SectionIntroduction(models.Model):
    """A few words a person puts above one section of their profile ("Statuses checked on
    2 Dec 2026", "Selected; the full list is on Scholar")."""

    class Section(models.TextChoices):  # the profile's sections, in page order, as headed
        NEWS = "news", _("News")
        PUBLICATIONS = "publications", _("Publications")
        PROJECTS = "projects", _("Open Source & Projects")
        CONTRIBUTIONS = "contributions", _("Open-Source Contributions")
        TALKS = "talks", _("Talks & Presentations")
        EXPERIENCE = "experience", _("Experience")
        EDUCATION = "education", _("Education")
        AWARDS = "awards", _("Honors & Awards")
        SERVICE = "service", _("Academic Service")
        WRITING = "writing", _("Writing")
        PATENTS = "patents", _("Patents")

    person = models.ForeignKey(
        Person, on_delete=models.CASCADE, related_name="section_introductions"
    )
    section = models.CharField(max_length=20, choices=Section.choices)
    text = translated(
        models.TextField(
            validators=[MaxLengthValidator(1000)],
            help_text="Markdown, a sentence or two, shown above the section's items.",
        ),
        required=True,
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = "section introduction"
        constraints = [
            models.UniqueConstraint(
                fields=["person", "section"], name="one_introduction_per_section"
            ),
        ]

    def __str__(self):
        return f"{self.get_section_display()}: {self.text[:60]}"


class ExtraSection(ProfileSection):
    """A free-form profile section for anything the structured ones do not cover."""

    title = models.CharField(max_length=100)
    body = models.TextField(help_text="Markdown.")

    class Meta:
        ordering = ["person", "order", "pk"]
        default_related_name = "extra_sections"

    def __str__(self):
        return self.title


# ---------------------------------------------------------------- the lab's settings

# The settings read in this request (or command); a new request reads them again.
_loaded = Local()


def forget_loaded_settings(**kwargs):
    _loaded.lab = None


request_started.connect(forget_loaded_settings, dispatch_uid="labsite-forget-settings")


class LabSettings(models.Model):
    class AuthorNameStyle(models.TextChoices):
        FULL = "full", _("Full names (Teng Ma)")
        INITIALS = "initials", _("Initials and family name (T Ma)")

    name = translated(
        models.CharField(max_length=200, default="Our Lab", help_text="Shown in every page title."),
        required=True,
    )
    tagline = translated(
        models.CharField(
            max_length=300, blank=True, help_text="One line under the lab name on the home page."
        )
    )
    about = translated(
        models.TextField(
            blank=True,
            help_text="About the lab, on the home page. Markdown: **bold**, [links](https://…).",
        )
    )
    contact_email = models.EmailField(blank=True)
    address = models.TextField(blank=True, help_text="Postal address, shown in the page footer.")
    logo = images.SafeImageField(
        upload_to="lab/", blank=True, help_text="JPEG, PNG or WebP; scaled to fit the header."
    )
    team_role_order = models.CharField(
        max_length=300,
        blank=True,
        default=",".join(Person.Role.values),
        help_text="Order of the groups on the team page, as comma-separated role codes: "
        + ", ".join(f"{value} ({label})" for value, label in Person.Role.choices)
        + ". Roles left out follow in that default order.",
    )

    author_name_style = models.CharField(
        "author names",
        max_length=10,
        choices=AuthorNameStyle.choices,
        default=AuthorNameStyle.INITIALS,
    )
    marker_equal_contribution = models.CharField(
        "equal-contribution marker",
        max_length=3,
        default="*",
        help_text="Printed after co-first authors' names, e.g. *.",
    )
    marker_corresponding = models.CharField(
        "corresponding-author marker",
        max_length=3,
        default="†",
        help_text="Printed after corresponding authors' names, e.g. †.",
    )
    authors_shorten_above = models.PositiveSmallIntegerField(
        "shorten author lists longer than",
        default=10,
        help_text="On profiles and lists, longer author lists show the first few names, “…”, "
        "and the member the page is about. Paper pages and exports always list everyone. "
        "0 never shortens.",
    )
    authors_keep_first = models.PositiveSmallIntegerField(
        "names kept at the start", default=3, help_text="How many names a shortened list keeps."
    )
    venue_summary_order = models.TextField(
        "venues in the profile summary",
        blank=True,
        help_text="Short names of the venues a profile's venue summary counts, in the order "
        "it lists them, comma-separated, e.g. “SOSP, OSDI, ASPLOS, ATC, EuroSys”.",
    )
    # The tables keep the names they had when lab settings were in the site package.
    history = HistoricalRecords(table_name="labsite_historicallabsettings")

    class Meta:
        db_table = "labsite_labsettings"
        verbose_name = verbose_name_plural = "lab settings"
        constraints = [
            models.CheckConstraint(condition=models.Q(pk=1), name="lab_settings_single_row"),
            models.CheckConstraint(
                condition=~models.Q(marker_equal_contribution=models.F("marker_corresponding")),
                name="lab_settings_markers_differ",
            ),
        ]

    def __str__(self):
        return str(_("Lab settings"))

    def save(self, *args, **kwargs):
        self.pk = 1
        old = set()
        if self.logo and not self.logo._committed:
            old = images.replaced_files(self, "logo")
            self.logo = images.fitted_png(images.open_upload(self.logo), 480, 160)
        super().save(*args, **kwargs)
        images.delete_after_commit(self.logo.storage, old)
        forget_loaded_settings()

    @classmethod
    def load(cls):
        """The settings row, read once per request (one query): every worker process sees
        an edit from its next request on, whatever cache the site is configured with."""
        lab = getattr(_loaded, "lab", None)
        if lab is None:
            lab, _ = cls.objects.get_or_create(pk=1)
            _loaded.lab = lab
        return lab

    def clean(self):
        codes = [code.strip() for code in self.team_role_order.split(",") if code.strip()]
        unknown = [code for code in codes if code not in Person.Role.values]
        if unknown:
            raise ValidationError(
                {"team_role_order": f"Unknown role code(s): {', '.join(unknown)}."}
            )
        if len(set(codes)) != len(codes):
            raise ValidationError({"team_role_order": _("Each role may be listed once.")})
        self.team_role_order = ",".join(codes)
        if self.marker_equal_contribution.strip() == self.marker_corresponding.strip():
            raise ValidationError(
                {
                    "marker_corresponding": _(
                        "The two markers must differ so readers tell them apart."
                    )
                }
            )

    def venue_order(self):
        return [v.strip() for v in self.venue_summary_order.split(",") if v.strip()]

    def role_order(self):
        """Every role, in the order the team page groups them."""
        listed = [c for c in self.team_role_order.split(",") if c in Person.Role.values]
        return listed + [code for code in Person.Role.values if code not in listed]
