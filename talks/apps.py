from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from core.content import ALL


class TalksConfig(AppConfig):
    name = "talks"
    verbose_name = _("Talks and awards")
    # core/content.py: every model here is content, a member's to edit where it is theirs
    holds_content = True
    member_permissions = dict.fromkeys(
        ("talk", "speaker", "award", "recipient", "projecttalk"), ALL
    )
