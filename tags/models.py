"""Tags: one vocabulary, in both languages, across the lab's papers, posts, talks, research
themes and courses. Each content model that takes tags has `tags = TagsField()`; a tag's
page lists everything with it."""

import re

from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords
from simple_history.utils import bulk_create_with_history

from core import changes
from core.languages import translated


def split_keywords(text):
    """The words of a keywords field as BibTeX and front matter write them: separated by
    commas or semicolons, spaces squashed, empty ones and repeats left out."""
    words = []
    for word in re.split(r"[,;]", text or ""):
        word = " ".join(word.split())[:100]
        if word and slugify(word) and word.casefold() not in {w.casefold() for w in words}:
            words.append(word)
    return words


class TagQuerySet(models.QuerySet):
    def named(self, words):
        """{slug: tag} for `words` (BibTeX keywords, front-matter tags), made where missing
        and matched by slug, so “Memory Systems” and “memory systems” are one tag: two
        queries and one insert however many words."""
        wanted = {}
        for word in words:
            slug = slugify(word)[:100]
            if slug:
                wanted.setdefault(slug, word)
        found = {tag.slug: tag for tag in self.filter(slug__in=wanted)}
        missing = [
            Tag(name_en=word, slug=slug) for slug, word in wanted.items() if slug not in found
        ]
        if missing:
            bulk_create_with_history(missing, Tag, ignore_conflicts=True)
            found = {tag.slug: tag for tag in self.filter(slug__in=wanted)}
        return found


class Tag(models.Model):
    name = translated(
        models.CharField(
            max_length=100,
            help_text="The tag as pages show it: “memory disaggregation” (Chinese: 内存解耦).",
        ),
        required=True,
    )
    slug = models.SlugField(
        max_length=100,
        blank=True,
        help_text="The last part of the tag's address: “memory” gives /tags/memory/. Leave "
        "empty to make one from the name.",
    )

    objects = TagQuerySet.as_manager()
    history = HistoricalRecords()

    class Meta:
        ordering = ["slug"]
        constraints = [
            # a tag's page looks it up by its slug (the unique index serves it)
            models.UniqueConstraint(fields=["slug"], name="tag_slug_unique"),
            models.CheckConstraint(condition=~Q(slug=""), name="tag_has_a_slug"),
        ]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        if not self.slug:
            self.slug = slugify(self.name_en)[:100] or f"tag-{Tag.objects.count() + 1}"
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("tags:detail", kwargs={"slug": self.slug})

    def clean(self):
        if not self.slug:
            self.slug = slugify(self.name_en)[:100]
        if not self.slug:
            raise ValidationError({"slug": _("Give the tag an address in Latin letters.")})
        if Tag.objects.filter(slug=self.slug).exclude(pk=self.pk).exists():
            raise ValidationError({"slug": _("Another tag has this address.")})

    @classmethod
    def tagged_relations(cls):
        """The many-to-many fields that hold tags, one per tagged model."""
        return [
            relation
            for relation in cls._meta.related_objects
            if relation.many_to_many and not relation.related_model._meta.auto_created
        ]

    def use_count(self):
        """How many items carry the tag (a query per tagged model)."""
        return sum(
            relation.through.objects.filter(
                **{relation.field.m2m_reverse_field_name(): self}
            ).count()
            for relation in self.tagged_relations()
        )

    def merge(self, others):
        """Everything tagged with any of `others` is tagged with this tag instead, and
        `others` are deleted: one transaction, a few queries per tagged model."""
        others = [tag for tag in others if tag.pk != self.pk]
        if not others:
            return
        with transaction.atomic():
            for relation in self.tagged_relations():
                through = relation.through
                source = relation.field.m2m_field_name()  # e.g. "post"
                target = relation.field.m2m_reverse_field_name()  # "tag"
                moved = through.objects.filter(**{f"{target}__in": others})
                already = set(
                    through.objects.filter(**{target: self}).values_list(f"{source}_id", flat=True)
                )
                items = set(moved.values_list(f"{source}_id", flat=True)) - already
                moved.delete()
                through.objects.bulk_create(
                    [through(**{f"{source}_id": pk, target: self}) for pk in sorted(items)]
                )
                # the tagged rows' pages changed: the bulk delete and insert send no signal
                changes.changed(relation.related_model)
            for tag in others:
                tag.delete()


def TagsField(**kwargs):
    """The tags of a content model: blank, shown on the item and its tags' pages."""
    kwargs.setdefault("blank", True)
    kwargs.setdefault(
        "help_text",
        "What it is about, in the lab's shared words; each tag has a page listing "
        "everything with it.",
    )
    return models.ManyToManyField(Tag, **kwargs)
