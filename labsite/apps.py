from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.utils.translation import gettext_lazy as _


class LabsiteConfig(AppConfig):
    name = "labsite"
    verbose_name = _("Lab site")
    # core/content.py: the site's own bookkeeping, not content (never edited, never backed
    # up but for the record of the demo's rows, which the archive names: labsite/archive.py)
    transient_models = (
        "contentversion",
        "contentchange",
        "demorow",
        "searchdocument",
        "searchterm",
    )
    # core/changes.py: any change to what pages show makes every worker's cached pages out
    # of date; so does a migrate (an upgrade may change what pages say), and it builds the
    # search index where there is none.
    on_content_change = ("labsite.page_cache.content_changed", "labsite.search.schema_changed")
    # core/changes.py: each row changed puts its search document out of date.
    on_row_change = ("labsite.search.rows_changed",)

    def ready(self):
        from labsite.i18n import translate_model_texts

        translate_model_texts()


class LabsiteAdminConfig(admin_apps.AdminConfig):
    """Django's admin, with the site's own index order (labsite/admin_site.py)."""

    default = False  # LabsiteConfig is this module's app

    default_site = "labsite.admin_site.LabAdminSite"
