from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from core.content import ALL

# A member's own profile sections: theirs to add, change and delete.
PROFILE_SECTIONS = (
    "link", "newsitem", "education", "experience", "service", "project", "projectresult",
    "contribution", "writing", "reportedfigure", "extrasection", "sectionintroduction",
)  # fmt: skip


class PeopleConfig(AppConfig):
    name = "people"
    verbose_name = _("People")
    # core/content.py: every model here is content; what a lab member may do with each
    holds_content = True
    # ... but no page shows a member's login account or when they were invited: an
    # invitation leaves every cached page as it is
    unshown_fields = {"person": ("user", "invited")}
    member_permissions = {"person": ("change", "view"), **dict.fromkeys(PROFILE_SECTIONS, ALL)}
