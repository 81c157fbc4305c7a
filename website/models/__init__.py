"""The lab's own pages and the site's menu, and the lab's posts: one module a subject, every
model importable from `website.models`."""

from website.models.pages import RESERVED, MenuItem, Page, PageQuerySet
from website.models.posts import Post, PostAuthor, PostQuerySet

__all__ = ["RESERVED", "MenuItem", "Page", "PageQuerySet", "Post", "PostAuthor", "PostQuerySet"]
