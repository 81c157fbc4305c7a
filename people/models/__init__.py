"""Lab members, their public profile, the sections of that profile they own, news, and the
lab's settings: one module a subject, every model importable from `people.models`."""

from people.models.lab_settings import LabSettings, forget_loaded_settings
from people.models.news import NewsItem, NewsItemQuerySet
from people.models.person import (
    INTERESTS_MAX_LENGTH,
    PHOTO_SIZES,
    Person,
    PersonQuerySet,
    normalize_name,
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
    "LabSettings",
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
    "forget_loaded_settings",
    "normalize_name",
    "split_name",
]
