"""factory-boy factories, one per model, and an uploaded photo."""

import datetime
import io

import factory
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from harvest import models as harvest
from media import models as media
from people import models as people
from publications import models as publications
from tags import models as tags
from talks import models as talks
from website import models as website


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ["username"]

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password("a-long-test-password")


class PersonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = people.Person

    name = factory.Sequence(lambda n: f"Member {n} Example")
    slug = factory.Sequence(lambda n: f"member-{n}")
    role = people.Person.Role.PHD
    title = "PhD student"
    affiliation = "Example University"


class LinkFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = people.Link

    person = factory.SubFactory(PersonFactory)
    kind = people.Link.Kind.GITHUB
    url = factory.Sequence(lambda n: f"https://github.com/example{n}")


class NewsItemFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = people.NewsItem

    person = factory.SubFactory(PersonFactory)
    date = "2025-10"
    text = factory.Sequence(lambda n: f"News item number {n}.")


class EducationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = people.Education

    person = factory.SubFactory(PersonFactory)
    degree = "Ph.D. in Computer Science"
    institution = factory.Sequence(lambda n: f"University {n}")
    start = "2016-09"
    end = "2021-06"


class ExperienceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = people.Experience

    person = factory.SubFactory(PersonFactory)
    title = factory.Sequence(lambda n: f"Engineer {n}")
    organization = "Example Corp"
    start = "2023-12"


class ServiceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = people.Service

    person = factory.SubFactory(PersonFactory)
    role = factory.Sequence(lambda n: f"Reviewer {n}")
    organization = "Example Conference"


class ProjectFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = people.Project

    person = factory.SubFactory(PersonFactory)
    name = factory.Sequence(lambda n: f"Project {n}")
    role = "Maintainer"
    tags = "RDMA, KV Cache"


class ProjectResultFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = people.ProjectResult

    project = factory.SubFactory(ProjectFactory)
    value = factory.Sequence(lambda n: f"{n + 2}×")
    measure = "throughput"


class ContributionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = people.Contribution

    person = factory.SubFactory(PersonFactory)
    project = "vLLM"
    title = factory.Sequence(lambda n: f"Fix number {n}")
    date = "2025-03"


class WritingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = people.Writing

    person = factory.SubFactory(PersonFactory)
    title = factory.Sequence(lambda n: f"Essay {n}")
    outlet = "Example Blog"


class ReportedFigureFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = people.ReportedFigure

    person = factory.SubFactory(PersonFactory)
    label = "Citations"
    value = "680+"
    source = "Google Scholar"
    read_on = datetime.date(2026, 12, 1)


class ExtraSectionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = people.ExtraSection

    person = factory.SubFactory(PersonFactory)
    title = factory.Sequence(lambda n: f"Extra {n}")
    body = "Some *Markdown* text."


class VenueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = publications.Venue
        django_get_or_create = ["short_name"]

    short_name = factory.Sequence(lambda n: f"CONF{n}")
    name = factory.LazyAttribute(lambda v: f"Conference {v.short_name}")
    kind = publications.Venue.Kind.CONFERENCE


class PublicationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = publications.Publication

    title = factory.Sequence(lambda n: f"A Study of Systems Number {n}")
    venue = factory.SubFactory(VenueFactory)
    date = "2024"
    kind = publications.Publication.Kind.CONFERENCE


class AuthorshipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = publications.Authorship

    publication = factory.SubFactory(PublicationFactory)
    position = factory.Sequence(lambda n: n + 1)
    given_name = "Alex"
    family_name = factory.Sequence(lambda n: f"Author{n}")


def authored(
    person=None, names=("Y Wang", "T Ma", "Y Luo"), *, at=2, co_first=(), corresponding=(), **fields
):
    """A publication whose author list is `names` (printed), with `person` linked at `at`.

    "..." in `names` is an unlisted-authors row. Positions in `co_first`/`corresponding` are
    1-based, as on a printed list.
    """
    publication = PublicationFactory(**fields)
    for position, printed in enumerate(names, start=1):
        given, _, family = printed.rpartition(" ")
        unlisted = printed == "..."
        publications.Authorship.objects.create(
            publication=publication,
            position=position,
            given_name="" if unlisted else given,
            family_name="" if unlisted else family,
            is_unlisted=unlisted,
            person=person if position == at else None,
            is_equal_contribution=position in co_first,
            is_corresponding=position in corresponding,
        )
    return publication


class TalkFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = talks.Talk

    title = factory.Sequence(lambda n: f"Talk number {n}")
    date = "2025-08"
    event = "AICon"
    city = "Shanghai"


class SpeakerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = talks.Speaker

    talk = factory.SubFactory(TalkFactory)
    person = factory.SubFactory(PersonFactory)
    position = factory.Sequence(lambda n: n + 1)


class AwardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = talks.Award

    name = factory.Sequence(lambda n: f"Award number {n}")
    date = "2024"


class RecipientFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = talks.Recipient

    award = factory.SubFactory(AwardFactory)
    person = factory.SubFactory(PersonFactory)
    position = factory.Sequence(lambda n: n + 1)


class PageFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = website.Page

    title = factory.Sequence(lambda n: f"Page number {n}")
    slug = factory.Sequence(lambda n: f"page-{n}")
    body = "What the lab says here."
    is_published = True


class MenuItemFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = website.MenuItem

    page = factory.SubFactory(PageFactory)


class PostFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = website.Post

    title = factory.Sequence(lambda n: f"Post number {n}")
    slug = factory.Sequence(lambda n: f"post-{n}")
    date = datetime.date(2026, 3, 2)
    body = "What the lab has to say."
    is_published = True


class PostAuthorFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = website.PostAuthor

    post = factory.SubFactory(PostFactory)
    person = factory.SubFactory(PersonFactory)
    position = factory.Sequence(lambda n: n + 1)


class OpeningFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = website.Opening

    title = factory.Sequence(lambda n: f"Opening number {n}")
    slug = factory.Sequence(lambda n: f"opening-{n}")
    kind = "phd"
    description = "Build memory systems with us."
    posted = datetime.date(2026, 3, 1)
    city = "Beijing"
    country = "CN"
    is_published = True


class ThemeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = website.Theme

    title = factory.Sequence(lambda n: f"Theme number {n}")
    slug = factory.Sequence(lambda n: f"theme-{n}")
    summary = "What the lab studies here."
    is_published = True


class HomeSectionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = website.HomeSection
        django_get_or_create = ["kind"]

    kind = website.HomeSection.Kind.NEWS


class CourseFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = website.Course

    title = factory.Sequence(lambda n: f"Course number {n}")
    slug = factory.Sequence(lambda n: f"course-{n}")
    is_published = True


class CourseTeacherFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = website.CourseTeacher

    course = factory.SubFactory(CourseFactory)
    person = factory.SubFactory(PersonFactory)
    position = factory.Sequence(lambda n: n + 1)


def photo_upload(size=(64, 64), color="teal", name="me.png"):
    """A PNG as a browser uploads it, for photo fields."""
    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, "PNG")
    return SimpleUploadedFile(name, buffer.getvalue())


def photo_bytes(size=(800, 600), fmt="JPEG", **save_options):
    """A photo-like image (a gradient, so that encoders have work to do) as file bytes."""
    image = Image.merge(
        "RGB",
        (
            Image.linear_gradient("L").resize(size),
            Image.radial_gradient("L").resize(size),
            Image.linear_gradient("L").rotate(90).resize(size),
        ),
    )
    buffer = io.BytesIO()
    image.save(buffer, fmt, **save_options)
    return buffer.getvalue()


class MediaItemFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = media.MediaItem

    name = factory.Sequence(lambda n: f"image-{n}")
    image = factory.LazyFunction(
        lambda: SimpleUploadedFile("photo.jpg", photo_bytes(), content_type="image/jpeg")
    )
    alt = factory.Sequence(lambda n: f"Picture number {n}")
    alt_zh_hans = factory.Sequence(lambda n: f"第 {n} 张图")


class GalleryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = media.Gallery

    name = factory.Sequence(lambda n: f"gallery-{n}")
    title = "The lab's retreat"


class GalleryItemFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = media.GalleryItem

    gallery = factory.SubFactory(GalleryFactory)
    item = factory.SubFactory(MediaItemFactory)


class TagFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = tags.Tag

    name = factory.Sequence(lambda n: f"topic {n}")
    slug = factory.Sequence(lambda n: f"topic-{n}")


class CandidateFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = harvest.Candidate

    title = factory.Sequence(lambda n: f"A work found, number {n}")
    year = 2025
