from django.apps import AppConfig
from django.db.models.signals import m2m_changed, post_delete, post_migrate, post_save
from django.utils.translation import gettext_lazy as _


class LabsiteConfig(AppConfig):
    name = "labsite"
    verbose_name = _("Lab site")
    # core/content.py: the site's own bookkeeping, not content (never backed up or edited)
    transient_models = ("contentversion", "contentchange")

    def ready(self):
        from core.bulk import rows_inserted
        from labsite import page_cache

        # Any change to the content makes every worker's cached pages out of date; so does a
        # migrate (an upgrade may change what pages say).
        for name, signal in [
            ("save", post_save),
            ("delete", post_delete),
            ("m2m", m2m_changed),
            ("bulk", rows_inserted),
        ]:
            signal.connect(page_cache.content_changed, dispatch_uid=f"labsite-pages-{name}")
        post_migrate.connect(page_cache.schema_changed, dispatch_uid="labsite-pages-migrate")

        from labsite.i18n import translate_model_texts

        translate_model_texts()
