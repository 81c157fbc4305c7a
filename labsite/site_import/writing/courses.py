"""A site's courses as the lab's, taught by the site's owner in the role the site names."""

import re

from labsite.site_import.site import SiteCourse
from labsite.site_import.writing.part import Part
from people.models import Person
from website.models import Course, CourseTeacher


class Courses(Part):
    def write(self, owner: Person | None) -> None:
        for course in self.site.courses:
            self._course(course, owner)

    def _course(self, source: SiteCourse, owner: Person | None) -> None:
        """A course the site lists as the lab's course, published, taught by the site's
        owner (a personal site's teaching is its owner's) in the role the site names, else
        as its instructor. Found again by its title and start."""
        title = source.title[:200]
        term = ""
        if source.start and source.end and source.end != source.start:
            term = f"{source.start} – {source.end}"  # taught over several years
        row = self.rows.row(
            Course,
            {"title_en": title, "start": source.start},
            title,
            kind="course",
            source=source.source,
            extra=lambda: {
                "term_en": term,
                "institution_en": source.institution[:200],
                "description_en": self.figures.text(source.description, source.source),
                "is_published": True,
                "featured_image": self.featured(source),
            },
        )
        if row is not None:
            self.tag(row, source.tags, source.source)
        if row is None or owner is None or row.teachers.exists():
            return
        role = _teaching_role(source.role)
        if role is None:
            role = CourseTeacher.Role.INSTRUCTOR
            if source.role:
                self.report.notes.append(
                    f"{source.source}: “{title}”: the role “{source.role[:60]}” is taken as "
                    "instructor"
                )
        CourseTeacher.objects.create(course=row, person=owner, role=role)


# A course's role as sites write it ("TA", "Teaching Assistant", "Co-instructor"), checked
# in this order (a co-instructor is no instructor, a guest lecturer no lecturer).
_Role = CourseTeacher.Role
_ROLES = [
    (re.compile(r"co-?(?:instructor|teach|lectur)", re.I), _Role.CO_INSTRUCTOR),
    (re.compile(r"\bTAs?\b|(?i:assistant|tutor)"), _Role.TEACHING_ASSISTANT),
    (re.compile(r"guest", re.I), _Role.GUEST_LECTURER),
    (re.compile(r"instructor|lecturer|teacher|professor|taught", re.I), _Role.INSTRUCTOR),
]


def _teaching_role(text: str) -> str | None:
    return next((role for words, role in _ROLES if words.search(text or "")), None)
