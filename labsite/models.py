"""What the site keeps for itself beside the content: the content version, and which rows
the demo lab made."""

from django.contrib.contenttypes.models import ContentType
from django.db import models


class ContentVersion(models.Model):
    """Where the content version starts (labsite/page_cache/): one row, written once, from
    the clock, when the table is new or was emptied, so no number stored before can come
    back. It is never updated, so no change waits on it."""

    number = models.BigIntegerField()

    class Meta:
        constraints = [
            models.CheckConstraint(condition=models.Q(pk=1), name="content_version_single_row")
        ]

    def __str__(self):
        return f"content version {self.number}"


class ContentChange(models.Model):
    """One row a change to the content adds (labsite/page_cache/): the content version is
    the start plus the highest row's id. Rows are only ever added, so changes never wait on
    one another for it, however long one of them takes."""

    class Meta:
        get_latest_by = "pk"

    def __str__(self):
        return f"content change {self.pk}"


class DemoRow(models.Model):
    """A content row the demo loader made (labsite/demo_rows.py): `remove_demo` takes these
    rows, and no other."""

    content_type = models.ForeignKey(ContentType, on_delete=models.CASCADE, related_name="+")
    object_id = models.PositiveBigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["content_type", "object_id"], name="demo_row_once")
        ]

    def __str__(self):
        return f"demo row {self.content_type_id}:{self.object_id}"


class SearchDocument(models.Model):
    """One public page (or list entry) as the site's search finds it (labsite/search.py):
    what a result shows, in each language, and how it ranks. Derived from the content and
    rebuilt from it (`manage.py rebuild_search_index`), so never backed up."""

    key = models.CharField(max_length=80, unique=True)  # "publications.publication:12"
    kind = models.CharField(max_length=20)
    titles = models.JSONField(default=dict)  # {language: title}
    texts = models.JSONField(default=dict)  # {language: plain text for excerpts}
    urls = models.JSONField(default=dict)  # {language: address}
    date = models.DateField(null=True, blank=True)
    shown_from = models.DateField(null=True, blank=True)  # a post dated in the future
    boost = models.FloatField(default=1.0)  # current members above alumni

    class Meta:
        ordering = ["pk"]

    def __str__(self):
        return self.key


class SearchTerm(models.Model):
    """A term of a document (core/search_text.py) and the weight of the field it is in
    (a title or name outweighs a body)."""

    term = models.CharField(max_length=64)
    document = models.ForeignKey(SearchDocument, on_delete=models.CASCADE, related_name="+")
    weight = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["term", "document"], name="search_term_unique"),
        ]
        # The unique index (term, document) serves every query: the documents of a term.

    def __str__(self):
        return self.term
