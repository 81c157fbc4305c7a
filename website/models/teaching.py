"""The lab's teaching: the courses its people teach, each with its term, institution and
links, and who taught it in which role; listed lab-wide, on each teacher's profile and CV.

A course's address carries the year it began ("/teaching/operating-systems-2024/"), so two
runs of one course in different years never claim one address."""

import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from core.languages import first_written, require_one, translated
from core.markup import BODY_LIMIT, MARKDOWN_HELP, text_limit
from core.partial_dates import PartialDateField
from core.slugs import unique_slug
from core.weblinks import SiteOrWebURLField, WebURLField, is_web_url, site_or_web_url
from media.fields import FeaturedImageField
from people.models import Person
from tags.models import TagsField
from website.models.written import Written, WrittenQuerySet

_YEAR_AT_END = re.compile(r"-(?:19|20)\d{2}$")


def with_year(slug, start):
    """`slug` carrying the year of `start`: as it is when a word of it is that year,
    another year at its end replaced, else the year added ("operating-systems" →
    "operating-systems-2024"); as it is without a start."""
    if start is None or str(start.year) in slug.split("-"):
        return slug
    return f"{_YEAR_AT_END.sub('', slug)[:95]}-{start.year}"


class CourseQuerySet(WrittenQuerySet):
    def published(self):
        """Published courses; on a personal site (PERSONAL_SITE), only those its owner
        teaches."""
        shown = self.filter(is_published=True)
        if settings.PERSONAL_SITE:
            shown = shown.filter(
                pk__in=CourseTeacher.objects.filter(person__slug=settings.PERSONAL_SITE).values(
                    "course"
                )
            )
        return shown

    def for_person(self, person):
        """Courses the person teaches, in any role."""
        return self.filter(pk__in=CourseTeacher.objects.filter(person=person).values("course"))

    def for_listing(self):
        """Each course's teachers with their people: one query more, however many courses."""
        return self.prefetch_related(
            models.Prefetch("teachers", queryset=CourseTeacher.objects.select_related("person"))
        )


class Course(Written):
    slug = models.SlugField(
        max_length=100,
        blank=True,
        help_text="The last part of the course's address: “operating-systems-2024” gives "
        "/teaching/operating-systems-2024/. It carries the year the course began (added "
        "when missing), so each run has its own. Leave empty to make one from the title and "
        "term.",
    )
    code = models.CharField(
        max_length=40,
        blank=True,
        help_text="The course's number at its institution, e.g. “CS 101”; empty if it has none.",
    )
    term = translated(
        models.CharField(
            max_length=60,
            blank=True,
            help_text="The term as the institution names it: “Fall 2024”, “2024年秋季”.",
        )
    )
    start = PartialDateField(
        null=True,
        blank=True,
        help_text="When it began: 2024, 2024-09 or 2024-09-02. The list groups courses by its "
        "year, newest first; a course without one comes last.",
    )
    institution = translated(
        models.CharField(
            max_length=200,
            blank=True,
            help_text="Where it is taught, e.g. “Tsinghua University”.",
        )
    )
    description = translated(
        models.TextField(
            blank=True,
            validators=[text_limit(BODY_LIMIT)],
            help_text=MARKDOWN_HELP,
        )
    )
    # A course's page, syllabus or materials may be pages of this site ("/teaching-notes/"),
    # shown in the visitor's language (core/weblinks.py).
    page_url = SiteOrWebURLField(
        "course page",
        blank=True,
        help_text="The course's own site: a page of this site (/…, shown in the visitor's "
        "language) or a web address (https://…).",
    )
    syllabus_url = SiteOrWebURLField(
        "syllabus",
        blank=True,
        help_text="Its syllabus: a page or file of this site (/…) or a web address (https://…).",
    )
    materials_url = SiteOrWebURLField(
        "materials",
        blank=True,
        help_text="Its slides, notes or exercises: a page or file of this site (/…) or a web "
        "address (https://…).",
    )
    video_url = WebURLField("recordings", blank=True, help_text="Its lectures' videos (https://…).")
    featured_image = FeaturedImageField(related_name="featured_courses")
    tags = TagsField(related_name="courses")
    is_published = models.BooleanField(
        "published",
        default=False,
        help_text="A draft is seen by no visitor: not listed, on no profile and on no CV.",
    )

    objects = CourseQuerySet.as_manager()

    class Meta:
        ordering = [models.F("start").desc(nulls_last=True), "pk"]
        constraints = [
            # a visit looks the course up by its slug (the unique index serves it)
            models.UniqueConstraint(fields=["slug"], name="course_slug_unique"),
            models.CheckConstraint(condition=~Q(slug=""), name="course_has_a_slug"),
        ]

    def __str__(self):
        return f"{self.code} {self.title}" if self.code else self.title

    def get_absolute_url(self):
        return reverse("teaching:detail", kwargs={"slug": self.slug})

    def clean(self):
        require_one(self, "title", _("Give the course's title, in English or Chinese."))
        self.fill_slug()
        if self.slug_taken():
            raise ValidationError({"slug": _("Another course has this address.")})

    def fill_slug(self):
        """An empty slug made from the title and the term ("operating-systems-fall-2024"),
        else the year; a slug given carries the year the course began."""
        if self.slug:
            self.slug = with_year(self.slug, self.start)
            return
        title = first_written(self, "title")
        year = str(self.start.year) if self.start else ""
        when = self.term_en if year in self.term_en.split() else f"{self.term_en} {year}"
        self.slug = with_year(unique_slug(self, f"{title} {when}", words=10), self.start)

    @classmethod
    def former_address(cls, slug):
        """The course whose slug is `slug` with its year added (the address it had before
        addresses carried the year), else None. One query."""
        found = cls.objects.filter(slug__regex=rf"^{re.escape(slug)}-(19|20)[0-9]{{2}}$")
        return next((c for c in found if c.slug == with_year(slug, c.start)), None)

    @property
    def links(self):
        """(label, address) of its page, syllabus, materials and recordings; those on this
        site as the page's language has them."""
        return [
            (label, url)
            for label, url in [
                (_("Course page"), site_or_web_url(self.page_url)),
                (_("Syllabus"), site_or_web_url(self.syllabus_url)),
                (_("Materials"), site_or_web_url(self.materials_url)),
                (_("Recordings"), self.video_url if is_web_url(self.video_url) else ""),
            ]
            if url
        ]


class CourseTeacher(models.Model):
    """One person who taught a course, in their role, in the order the course names them:
    a lab member (the course shows on their profile and CV), or someone else by name."""

    class Role(models.TextChoices):
        INSTRUCTOR = "instructor", _("Instructor")
        CO_INSTRUCTOR = "co-instructor", _("Co-instructor")
        TEACHING_ASSISTANT = "assistant", _("Teaching assistant")
        GUEST_LECTURER = "guest", _("Guest lecturer")

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="teachers")
    person = models.ForeignKey(
        Person,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="course_teachers",
        help_text="A member of the lab; the course shows on their profile and CV.",
    )
    name = models.CharField(
        max_length=200,
        blank=True,
        help_text="Someone from outside the lab, by name, e.g. “Prof. Yongwei Wu”; empty for "
        "a member.",
    )
    role = models.CharField(max_length=20, choices=Role.choices, default=Role.INSTRUCTOR)
    position = models.PositiveSmallIntegerField(default=1, help_text="1 comes first.")
    history = HistoricalRecords()

    class Meta:
        ordering = ["course", "position", "pk"]
        verbose_name = "teacher"
        constraints = [
            models.CheckConstraint(
                condition=Q(person__isnull=False) | ~Q(name=""), name="teacher_person_or_name"
            ),
            models.UniqueConstraint(fields=["course", "person"], name="course_teacher_once"),
        ]

    def __str__(self):
        return self.shown_name

    @property
    def shown_name(self):
        return self.person.name if self.person_id else self.name

    def clean(self):
        if not self.person_id and not self.name.strip():
            raise ValidationError(_("Choose a member of the lab or write the person's name."))
