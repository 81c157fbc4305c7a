"""The lab's blog: posts written by its people, each on its own page, in the posts list and
feed, and on every author's profile."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from core.languages import require_one, translated
from core.markup import BODY_LIMIT, MARKDOWN_HELP, text_limit
from media.fields import FeaturedImageField
from people.models import Person
from tags.models import TagsField
from website.models.written import Written, WrittenQuerySet


class PostQuerySet(WrittenQuerySet):
    def published(self):
        """Published posts dated today or before; on a personal site (PERSONAL_SITE), only
        those its owner wrote."""
        shown = self.filter(is_published=True, date__lte=timezone.localdate())
        if settings.PERSONAL_SITE:
            owned = PostAuthor.objects.confirmed().filter(person__slug=settings.PERSONAL_SITE)
            shown = shown.filter(pk__in=owned.values("post"))
        return shown

    def for_person(self, person):
        """Posts the person is a confirmed author of."""
        authored = PostAuthor.objects.confirmed().filter(person=person)
        return self.filter(pk__in=authored.values("post"))

    def for_listing(self):
        """Each post's confirmed authors (`post.authors.all()`, what a visitor is shown)
        with their people, its featured image and tags: two queries more, however many
        posts."""
        authors = PostAuthor.objects.confirmed().select_related("person")
        return self.select_related("featured_image").prefetch_related(
            models.Prefetch("authors", queryset=authors), "tags"
        )


class Post(Written):
    slug = models.SlugField(
        max_length=100,
        blank=True,
        help_text="The last part of the post's address: “a-new-paper-2026” gives "
        "/posts/a-new-paper-2026/. Leave empty to make one from the title and year.",
    )
    date = models.DateField(
        default=timezone.localdate,
        help_text="The post's date, shown with it; a post dated in the future shows from "
        "that day on.",
    )
    summary = translated(
        models.CharField(
            max_length=300,
            blank=True,
            help_text="One or two sentences for the list of posts and for search engines; "
            "empty for the body's beginning.",
        )
    )
    body = translated(
        models.TextField(
            blank=True,
            validators=[text_limit(BODY_LIMIT)],
            help_text=MARKDOWN_HELP,
        )
    )
    featured_image = FeaturedImageField(related_name="featured_posts")
    tags = TagsField(related_name="posts")
    is_published = models.BooleanField(
        "published",
        default=False,
        help_text="A draft is seen by no visitor: not listed, in no feed and on no profile.",
    )

    objects = PostQuerySet.as_manager()
    slug_words = 8

    class Meta:
        ordering = ["-date", "-pk"]
        constraints = [
            # a visit looks the post up by its slug (the unique index serves it)
            models.UniqueConstraint(fields=["slug"], name="post_slug_unique"),
            models.CheckConstraint(condition=~models.Q(slug=""), name="post_has_a_slug"),
        ]
        indexes = [
            # the posts list and feed: newest published posts first
            models.Index(fields=["is_published", "-date"], name="post_published_date"),
        ]

    def get_absolute_url(self):
        return reverse("posts:detail", kwargs={"slug": self.slug})

    def clean(self):
        require_one(self, "title", _("Give the post's title, in English or Chinese."))
        self.fill_slug()
        if self.slug_taken():
            raise ValidationError({"slug": _("Another post has this address.")})


class PostAuthorQuerySet(models.QuerySet):
    def confirmed(self):
        """The authors a visitor is shown: those who confirmed, or whom a lab admin named."""
        return self.filter(confirmed=True)


class PostAuthor(models.Model):
    """One author of a post, in the order the byline names them. A member naming another
    member makes an unconfirmed author, shown nowhere public until that member confirms
    (the admin's posts list, "Confirm that I am an author")."""

    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="authors")
    person = models.ForeignKey(
        Person,
        on_delete=models.CASCADE,
        related_name="post_authors",
        help_text="A member of the lab; the post shows on their profile.",
    )
    position = models.PositiveSmallIntegerField(default=1, help_text="1 comes first.")
    confirmed = models.BooleanField(
        default=True,
        help_text="Shown as an author. A member named by another member confirms first; "
        "until then no visitor sees them as an author of the post.",
    )

    objects = PostAuthorQuerySet.as_manager()
    history = HistoricalRecords()

    class Meta:
        ordering = ["post", "position", "pk"]
        verbose_name = "author"
        constraints = [
            models.UniqueConstraint(fields=["post", "person"], name="post_author_once"),
        ]

    def __str__(self):
        return self.person.name
