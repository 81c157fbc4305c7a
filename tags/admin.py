"""Tags in the admin: renamed on their own page (both languages, the address), merged from
the list."""

from django.contrib import admin, messages
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _

from core.languages import in_languages
from lab.editing import LabModelAdmin
from tags.models import Tag


@admin.register(Tag)
class TagAdmin(LabModelAdmin):
    list_display = ["name_en", "name_zh_hans", "slug", "use_count"]
    search_fields = [*in_languages("name"), "slug"]
    prepopulated_fields = {"slug": ["name_en"]}
    fields = [tuple(in_languages("name")), "slug"]
    actions = ["merge_tags"]

    @admin.display(description=_("used"))
    def use_count(self, tag):
        """How many items carry the tag (a query per tagged model)."""
        return tag.use_count()

    @admin.action(description=_("Merge selected tags into one…"), permissions=["delete"])
    def merge_tags(self, request, queryset):
        """Two tags that are one (“GPU” and “GPUs”): pick the one to keep; everything
        tagged with the others is tagged with it, and the others are deleted."""
        tags = list(queryset.order_by("slug"))
        if len(tags) < 2:
            self.message_user(request, _("Select at least two tags to merge."), messages.WARNING)
            return None
        chosen = request.POST.get("keep")
        keep = next((t for t in tags if str(t.pk) == chosen), None)
        if "merge" in request.POST and keep is not None:
            others = [t for t in tags if t.pk != keep.pk]
            keep.merge(others)
            self.message_user(
                request,
                _("Merged %(count)d tag(s) into “%(tag)s”.") % {"count": len(others), "tag": keep},
                messages.SUCCESS,
            )
            return None
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Merge tags"),
            "tags": tags,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/tags/tag/merge.html", context)
