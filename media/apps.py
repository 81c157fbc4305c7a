from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MediaConfig(AppConfig):
    """The lab's media library: images uploaded once (alt text in both languages, caption,
    credit), kept with their renditions, used anywhere by a short name (`media:cluster`)
    and as the featured image of posts, papers, themes, talks and courses; galleries of them."""

    name = "media"
    verbose_name = _("Media library")
    # core/content.py: images and galleries are content (backed up, pages show them); a
    # member uploads an image for their post and picks it, lab admins change and delete
    holds_content = True
    member_permissions: dict[str, tuple[str, ...]] = {"mediaitem": ("add", "view")}

    def ready(self):
        import core.markup
        from media.references import LIBRARY

        # The Markdown renderer asks for `![alt](media:NAME "title")` here (once it has the
        # hook: a renderer without it shows no images at all).
        if hasattr(core.markup, "register_media_resolver"):
            core.markup.register_media_resolver(LIBRARY)
