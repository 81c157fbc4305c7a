"""One path for "content changed": every save, delete, many-to-many change and bulk insert of
a content model (core/content.py) comes here, once, and what follows is what the apps
declare on their AppConfig, each a dotted path to a function of (model, using):

    class LabsiteConfig(AppConfig):
        on_content_change = ("labsite.page_cache.content_changed",)  # pages out of date

    class PublicationsConfig(AppConfig):
        on_content_change = ("publications.tasks.papers_changed",)  # exports to rewrite

A follower does its part inside the change's own transaction (or queues it for after the
commit), so nothing a change puts out of date outlives it.

What follows one row rather than a whole model (the search index) is declared as
`on_row_change`: a function of (model, row, using), row None for a bulk insert."""

import functools
from collections.abc import Callable

from django.db import DEFAULT_DB_ALIAS
from django.db.models import Model
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.utils.module_loading import import_string

from core import content
from core.bulk import rows_inserted

Follower = Callable[..., None]


def connect() -> None:
    for name, signal in (
        ("save", post_save),
        ("delete", post_delete),
        ("m2m", m2m_changed),
        ("bulk", rows_inserted),
    ):
        signal.connect(changed, dispatch_uid=f"core-changes-{name}")


def changed(sender: type[Model], using: str = DEFAULT_DB_ALIAS, **kwargs: object) -> None:
    """Receiver of the signals above (and a call for writes that send none)."""
    if not content.is_content(sender):
        return
    for follower in followers():
        follower(sender, using)
    row = kwargs.get("instance")
    for follower in followers("on_row_change"):
        follower(sender, row if isinstance(row, Model) else None, using)


@functools.cache
def followers(declaration: str = "on_content_change") -> list[Follower]:
    return [
        import_string(path)
        for config in content.project_apps()
        for path in getattr(config, declaration, ())
    ]
