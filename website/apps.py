from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WebsiteConfig(AppConfig):
    """The lab's own pages and the site's menu: what a lab admin writes beside the data the
    other apps keep."""

    name = "website"
    verbose_name = _("Website")
    # core/content.py: every model here is content; lab admins alone write pages and the menu
    holds_content = True
    member_permissions: dict[str, tuple[str, ...]] = {}
