"""What the site keeps for itself beside the content: the content version, and which rows
the demo lab made."""

from django.contrib.contenttypes.models import ContentType
from django.db import models


class ContentVersion(models.Model):
    """Where the content version starts (labsite/page_cache.py): one row, written once, from
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
    """One row a change to the content adds (labsite/page_cache.py): the content version is
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
