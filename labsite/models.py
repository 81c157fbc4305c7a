"""What the site keeps for itself beside the content: the content version."""

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
