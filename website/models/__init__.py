"""The lab's own pages and the site's menu, the home page's sections, the lab's posts,
openings, research themes and teaching: one module a subject, every model importable from
`website.models`."""

from website.models.home import HomeSection
from website.models.openings import Opening, OpeningQuerySet
from website.models.pages import RESERVED, MenuItem, Page
from website.models.posts import Post, PostAuthor, PostQuerySet
from website.models.teaching import Course, CourseQuerySet, CourseTeacher
from website.models.themes import Theme
from website.models.written import Written, WrittenQuerySet

__all__ = [
    "RESERVED",
    "Course",
    "CourseQuerySet",
    "CourseTeacher",
    "HomeSection",
    "MenuItem",
    "Opening",
    "OpeningQuerySet",
    "Page",
    "Post",
    "PostAuthor",
    "PostQuerySet",
    "Theme",
    "Written",
    "WrittenQuerySet",
]
