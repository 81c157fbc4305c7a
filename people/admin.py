"""Admin for people (one page per person with every profile section inline) and their
news."""

from django import forms
from django.contrib import admin, messages
from django.utils import formats
from django.utils.html import format_html
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from core.languages import in_languages
from lab.editing import LabModelAdmin
from lab.groups import is_lab_admin, linkable_accounts
from people import models
from people.invitations import InvitationRefused, invite
from people.models import Person


class CurrentOrAlumniFilter(admin.SimpleListFilter):
    title = "membership"
    parameter_name = "membership"

    def lookups(self, request, model_admin):
        return [("current", "Current members"), ("alumni", "Alumni")]

    def queryset(self, request, queryset):
        if self.value() == "current":
            return queryset.current()
        if self.value() == "alumni":
            return queryset.alumni()
        return queryset


class Folded:
    """A section of the person editor, folded until opened (the page listed them all open
    was 13,000 px tall); the list at the top opens one, and one with an error shows open."""

    classes = ["collapse"]


class LinkInline(Folded, admin.TabularInline):
    model = models.Link
    extra = 0


class ReportedFigureInline(Folded, admin.TabularInline):
    model = models.ReportedFigure
    extra = 0


class NewsItemInline(Folded, admin.TabularInline):
    model = models.NewsItem
    extra = 0
    fields = ["date", *in_languages("text"), "is_published"]


class EducationInline(Folded, admin.StackedInline):
    model = models.Education
    fk_name = "person"
    extra = 0
    autocomplete_fields = ["advisors"]
    fields = [
        ("degree", "institution"),
        ("department", "location"),
        ("start", "end", "order"),
        ("advisors", "advisor_names"),
        "description",
    ]


class ExperienceInline(Folded, admin.StackedInline):
    model = models.Experience
    extra = 0
    fields = [
        ("title", "organization"),
        ("unit", "location"),
        ("start", "end", "order"),
        "description",
    ]


class ServiceInline(Folded, admin.TabularInline):
    model = models.Service
    extra = 0


class ProjectInline(Folded, admin.StackedInline):
    model = models.Project
    extra = 0
    show_change_link = True  # the project's own page holds its results and linked work
    fields = [
        (*in_languages("name"), "url"),
        ("role", "role_note", "order"),
        tuple(in_languages("summary")),
        "tags",
        ("figure", "figure_label", "figure_source", "figure_read_on"),
    ]


class ProjectResultInline(admin.TabularInline):
    model = models.ProjectResult
    extra = 1


@admin.register(models.Project)
class ProjectAdmin(LabModelAdmin):
    """A project's own page: what the person's page edits inline, plus its results; the
    apps above add the rows that link it to their work (publications, talks)."""

    owner_lookup = "person"
    list_display = ["name", "person", "role"]
    list_filter = ["person"]
    list_select_related = ["person"]
    search_fields = [*in_languages("name"), "person__name", "tags"]
    autocomplete_fields = ["person"]
    fields = ["person", *ProjectInline.fields]
    inlines = [ProjectResultInline]


class ContributionInline(Folded, admin.TabularInline):
    model = models.Contribution
    extra = 0


class WritingInline(Folded, admin.StackedInline):
    model = models.Writing
    extra = 0
    fields = [("title", "outlet"), ("url", "date", "order"), "summary"]


class SectionIntroductionInline(Folded, admin.TabularInline):
    model = models.SectionIntroduction
    extra = 0
    verbose_name_plural = _("section introductions (shown above a section's items)")

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if db_field.name in in_languages("text"):
            kwargs["widget"] = forms.Textarea(attrs={"rows": 2, "cols": 60})
        return super().formfield_for_dbfield(db_field, request, **kwargs)


class ExtraSectionInline(Folded, admin.StackedInline):
    model = models.ExtraSection
    extra = 0


@admin.register(Person)
class PersonAdmin(LabModelAdmin):
    owner_lookup = "pk"
    # Members keep their own page current; where they sit in the lab is the lab admin's call.
    member_readonly_fields = [
        "user", "slug", "role", "member_since", "member_until", "display_order", "is_published",
    ]  # fmt: skip
    list_display = [
        "name", "native_name", "role", "membership", "is_published", "account", "thumbnail",
    ]  # fmt: skip
    list_select_related = ["user"]
    actions = ["invite_by_email"]
    list_filter = ["role", CurrentOrAlumniFilter, "is_published"]
    search_fields = ["name", "native_name", "name_variants", "slug", "email", "orcid"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["photo_preview", "account"]
    change_form_template = "admin/people/person/change_form.html"
    autocomplete_fields = ["user"]

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if db_field.name in in_languages("research_interests"):  # a few short lines
            kwargs["widget"] = forms.Textarea(attrs={"rows": 4, "cols": 60})
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    fieldsets = [
        (
            _("Name"),
            {"fields": ["name", ("native_name", "native_name_lang"), "slug", "name_variants"]},
        ),
        (
            _("In the lab"),
            {
                "fields": [
                    ("role", "display_order"),
                    ("member_since", "member_until"),
                    ("has_left", "alumni_destination"),
                    "is_published",
                ]
            },
        ),
        (
            _("Profile"),
            {
                "fields": [
                    tuple(in_languages("title")),
                    tuple(in_languages("affiliation")),
                    tuple(in_languages("tagline")),
                    ("photo", "photo_preview"),
                    tuple(in_languages("bio")),
                    tuple(in_languages("research_interests")),
                    ("now", "now_updated"),
                ]
            },
        ),
        (
            _("Contact and identifiers"),
            {
                "fields": [
                    ("email", "show_email"),
                    "orcid",
                    ("openalex_id", "dblp_pid"),
                    ("semantic_scholar_id", "arxiv_author_id"),
                    "github_user",
                    ("user", "account"),
                ]
            },
        ),
        (_("Curriculum vitae"), {"fields": ["cv_sections"]}),
    ]
    inlines = [
        LinkInline,
        ReportedFigureInline,
        NewsItemInline,
        ExperienceInline,
        EducationInline,
        ProjectInline,
        ContributionInline,
        ServiceInline,
        WritingInline,
        ExtraSectionInline,
        SectionIntroductionInline,
    ]

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        if "user" in form.base_fields:
            # The choices a submitted account is checked against (the autocomplete only
            # offers them): a forged id of a superuser's or another lab admin's account is
            # a form error. The class is made afresh for each request.
            linked = obj.user_id if obj is not None else None
            form.base_fields["user"].queryset = linkable_accounts(request.user, linked)
        return form

    def get_queryset(self, request):
        if self.is_member_editor(request) and _is_autocomplete(request):
            # Picking a co-author or an advisor: anyone with a public profile.
            return Person.objects.published()
        return super().get_queryset(request)

    def get_prepopulated_fields(self, request, obj=None):
        return (
            {} if self.is_member_editor(request) else super().get_prepopulated_fields(request, obj)
        )

    @admin.action(description=_("Invite by email"), permissions=["invite"])
    def invite_by_email(self, request, queryset):
        """A login for each chosen member, in the Lab member group, and the link to choose
        a password sent to their profile's e-mail address; sent again to those invited."""
        for person in queryset.select_related("user"):
            try:
                invite(person, language=get_language())
            except InvitationRefused as refusal:
                self.message_user(request, str(refusal), messages.ERROR)
            else:
                self.message_user(
                    request,
                    _("%(name)s is invited: the link to choose a password went to %(email)s.")
                    % {"name": person.name, "email": person.user.email},
                    messages.SUCCESS,
                )

    def has_invite_permission(self, request):
        return is_lab_admin(request.user)

    @admin.display(description=_("account"))
    def account(self, person):
        """Whether the member can log in: "—", "invited 4 Dec 2026", or their user name."""
        user = person.user
        if user is None:
            return "—"
        if user.last_login is None and person.invited:
            when = formats.date_format(person.invited, "SHORT_DATE_FORMAT")
            return _("invited %(date)s, not yet signed in") % {"date": when}
        return user.username

    @admin.display(description=_("membership"))
    def membership(self, person):
        return "Alumni" if person.is_alumnus else "Current"

    @admin.display(description=_("photo"))
    def thumbnail(self, person):
        if not person.photo_thumb:
            return ""
        return format_html(
            '<img src="{}" alt="" width="32" height="32" class="person-thumbnail">',
            person.photo_thumb.url,
        )

    @admin.display(description=_("current photo"))
    def photo_preview(self, person):
        if not person.photo:
            return _("No photo: the profile shows the initials avatar.")
        return format_html(
            '<img src="{}" alt="Photo of {}" width="160" height="160">', person.photo.url, person
        )


@admin.register(models.NewsItem)
class NewsItemAdmin(LabModelAdmin):
    owner_lookup = "person"
    list_display = ["date", "text", "person", "is_published"]
    list_filter = ["is_published", ("person", admin.EmptyFieldListFilter)]
    list_select_related = ["person"]
    search_fields = [*in_languages("text"), "person__name"]
    autocomplete_fields = ["person"]
    fields = ["person", "date", tuple(in_languages("text")), "is_published"]

    def keep_member_linked(self, news, person):
        if news.person_id is None:
            news.person = person
            news.save(update_fields=["person"])


def _is_autocomplete(request):
    return getattr(request.resolver_match, "url_name", None) == "autocomplete"
