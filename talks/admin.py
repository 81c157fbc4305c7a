"""Admin for talks and awards, with their ordered speakers and recipients inline."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from core.languages import in_languages
from lab.editing import (
    LabModelAdmin,
    MemberRowsInline,
    MemberWorkInline,
    YearFilter,
    member_filter,
)
from people.admin import ProjectAdmin
from talks.models import Award, ProjectTalk, Recipient, Speaker, Talk


class SpeakerInline(MemberRowsInline):
    model = Speaker
    extra = 1
    autocomplete_fields = ["person"]
    fields = ["position", "person", "name"]


class RecipientInline(MemberRowsInline):
    model = Recipient
    extra = 1
    autocomplete_fields = ["person"]
    fields = ["position", "person", "name"]


class ProjectTalkInline(MemberWorkInline):
    model = ProjectTalk
    work_field = "talk"
    credited_lookup = "speakers__person"


ProjectAdmin.inlines = [*ProjectAdmin.inlines, ProjectTalkInline]


@admin.register(Talk)
class TalkAdmin(LabModelAdmin):
    owner_lookup = "speakers__person"
    list_display = ["title", "date", "kind", "event", "speaker_names", "is_published"]
    list_filter = [YearFilter, "kind", member_filter("speakers"), "language", "is_published"]
    search_fields = [
        *in_languages("title"),
        "event",
        "host",
        "city",
        "speakers__name",
        "speakers__person__name",
    ]
    autocomplete_fields = ["publication", "featured_image", "tags"]
    inlines = [SpeakerInline]
    fieldsets = [
        (
            None,
            {
                "fields": [
                    tuple(in_languages("title")),
                    ("kind", "date"),
                    ("language", "slug"),
                    "is_published",
                ]
            },
        ),
        (_("Where"), {"fields": ["event", "host", ("city", "country")]}),
        (
            _("More"),
            {
                "fields": [
                    ("slides_url", "video_url", "event_url"),
                    "publication",
                    "description",
                    ("featured_image", "tags"),
                ]
            },
        ),
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("speakers__person")

    def keep_member_linked(self, talk, person):
        _add_participant(talk.speakers, person)

    @admin.display(description=_("speakers"))
    def speaker_names(self, talk):
        return ", ".join(str(s) for s in talk.speakers.all())


@admin.register(Award)
class AwardAdmin(LabModelAdmin):
    owner_lookup = "recipients__person"
    list_display = [
        "name",
        "date",
        "kind",
        "detail",
        "awarded_by",
        "recipient_names",
        "is_published",
    ]
    list_filter = [YearFilter, "kind", member_filter("recipients"), "is_published"]
    search_fields = [
        *in_languages("name"),
        "awarded_by",
        "detail",
        "recipients__name",
        "recipients__person__name",
    ]
    autocomplete_fields = ["publication"]
    inlines = [RecipientInline]
    fields = [
        tuple(in_languages("name")),
        ("kind", "date"),
        ("detail", "awarded_by"),
        "publication",
        "is_published",
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("recipients__person")

    def keep_member_linked(self, award, person):
        _add_participant(award.recipients, person)

    @admin.display(description=_("recipients"))
    def recipient_names(self, award):
        return ", ".join(str(r) for r in award.recipients.all())


def _add_participant(rows, person):
    """Add `person` at the end of a speaker or recipient list they are not on yet."""
    if not rows.filter(person=person).exists():
        last = rows.order_by("-position").first()
        rows.create(person=person, position=(last.position + 1) if last else 1)
