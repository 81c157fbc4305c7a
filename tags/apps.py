from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TagsConfig(AppConfig):
    """One vocabulary of tags, in both languages, that papers, posts, talks, research themes
    and courses share; a page per tag lists everything with it."""

    name = "tags"
    verbose_name = _("Tags")
    # core/content.py: tags are content; a member may pick tags and add a new one, lab
    # admins rename and merge them
    holds_content = True
    member_permissions: dict[str, tuple[str, ...]] = {"tag": ("add", "view")}
