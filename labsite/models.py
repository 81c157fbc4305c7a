"""What the site keeps for itself beside the content: the content version."""

from django.db import models


class ContentVersion(models.Model):
    """The number public pages are stored under in the cache (labsite/page_cache.py). One
    row. Every change to the content moves it inside the change's own transaction, so it is
    exactly as current as the rows it stands for, whether or not the cache answers."""

    number = models.BigIntegerField()

    class Meta:
        constraints = [
            models.CheckConstraint(condition=models.Q(pk=1), name="content_version_single_row")
        ]

    def __str__(self):
        return f"content version {self.number}"
