"""The sections of a profile a person owns: links, education, experience, service,
projects and their results, open source, writing, reported figures, extra sections."""

from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from core.languages import translated
from core.markup import DESCRIPTION_LIMIT, MARKDOWN_HELP, SUMMARY_LIMIT, text_limit
from core.partial_dates import PartialDateField, format_range
from core.weblinks import SiteOrWebURLField, WebURLField
from lab import sections
from people.models.person import Person


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
    description = models.TextField(
        blank=True, validators=[text_limit(SUMMARY_LIMIT)], help_text=MARKDOWN_HELP
    )

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
    description = models.TextField(
        blank=True, validators=[text_limit(SUMMARY_LIMIT)], help_text=MARKDOWN_HELP
    )

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
    # a member's project may be one of the lab's themes ("/themes/kvcache/")
    url = SiteOrWebURLField(
        "URL",
        blank=True,
        help_text="A page of this site (/themes/…, shown in the visitor's language) or a web "
        "address (https://…).",
    )
    role = models.CharField(
        max_length=100, blank=True, help_text="e.g. Maintainer, Committer, Contributor, Lead."
    )
    role_note = models.CharField(
        max_length=200,
        blank=True,
        help_text="A few words beside the role, e.g. “PyTorch Foundation Project” or “6K+ LOC”.",
    )
    summary = translated(
        models.TextField(
            blank=True, validators=[text_limit(SUMMARY_LIMIT)], help_text=MARKDOWN_HELP
        )
    )
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
    summary = models.TextField(
        blank=True, validators=[text_limit(SUMMARY_LIMIT)], help_text=MARKDOWN_HELP
    )

    class Meta:
        ordering = ["person", "order", "-date"]
        verbose_name_plural = "writing"
        default_related_name = "writing"

    def __str__(self):
        return self.title


class ReportedFigure(ProfileSection):
    """A figure typed in by hand (a Scholar citation total), with where and when it was read."""

    label = translated(
        models.CharField(max_length=60, help_text="e.g. “Citations”, “h-index”."), required=True
    )
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

    Section = sections.profile_choices()  # the profile's sections, in page order

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
    body = models.TextField(validators=[text_limit(DESCRIPTION_LIMIT)], help_text=MARKDOWN_HELP)

    class Meta:
        ordering = ["person", "order", "pk"]
        default_related_name = "extra_sections"

    def __str__(self):
        return self.title
