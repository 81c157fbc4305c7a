from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from core.content import ALL


class WebsiteConfig(AppConfig):
    """The lab's own pages, the site's menu and the lab's posts: what the lab writes beside
    the data the other apps keep."""

    name = "website"
    verbose_name = _("Website")
    # core/content.py: every model here is content; lab admins alone write pages and the
    # menu, members write posts (the admin narrows them to those they are an author of)
    holds_content = True
    member_permissions: dict[str, tuple[str, ...]] = {"post": ALL, "postauthor": ALL}
