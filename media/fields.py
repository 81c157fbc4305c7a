"""The featured image a content model may carry: a media item, shown in lists, on the
item's page, in the home's sections and in link previews."""

from django.db import models


def FeaturedImageField(**kwargs):
    kwargs.setdefault("on_delete", models.PROTECT)  # an image in use is not deleted
    kwargs.setdefault("null", True)
    kwargs.setdefault("blank", True)
    kwargs.setdefault("verbose_name", "featured image")
    kwargs.setdefault(
        "help_text",
        "An image from the media library, shown with it in lists, on its page and when a "
        "link to it is shared.",
    )
    return models.ForeignKey("media.MediaItem", **kwargs)
