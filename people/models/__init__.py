"""Lab members, their public profile, the sections of that profile they own, and news: one
module a subject, every model importable from `people.models`."""

from people.models.news import NewsItem, NewsItemQuerySet
from people.models.person import (
    INTERESTS_MAX_LENGTH,
    PHOTO_SIZES,
    Person,
    PersonQuerySet,
    normalize_name,
    shows_page,
    split_name,
)
from people.models.sections import (
    Contribution,
    Education,
    Experience,
    ExtraSection,
    Link,
    ProfileSection,
    Project,
    ProjectResult,
    ReportedFigure,
    SectionIntroduction,
    Service,
    Writing,
)

__all__ = [
    "INTERESTS_MAX_LENGTH",
    "PHOTO_SIZES",
    "Contribution",
    "Education",
    "Experience",
    "ExtraSection",
    "Link",
    "NewsItem",
    "NewsItemQuerySet",
    "Person",
    "PersonQuerySet",
    "ProfileSection",
    "Project",
    "ProjectResult",
    "ReportedFigure",
    "SectionIntroduction",
    "Service",
    "Writing",
    "normalize_name",
    "shows_page",
    "split_name",
]
