"""Admin for the lab's own pages, the site's menu, the home page's sections, its openings,
research themes and courses (lab admins only), and for posts (lab admins all, a member those
they are an author of)."""

from django.contrib import admin, messages
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from core.languages import in_languages
from lab.editing import LabModelAdmin, MemberRowsInline, member_person
from lab.groups import is_lab_admin
from website.models import (
    Course,
    CourseTeacher,
    HomeSection,
    MenuItem,
    Opening,
    Page,
    Post,
    PostAuthor,
    Theme,
)


class PageMenuItemInline(admin.TabularInline):
    """The page's place in the menu, set on the page itself."""

    model = MenuItem
    fields = ["position", *in_languages("label"), "is_shown"]
    extra = 0
    max_num = 1
    verbose_name = _("place in the menu")
    verbose_name_plural = _("place in the menu")


@admin.register(Page)
class PageAdmin(LabModelAdmin):
    list_display = ["title", "address_shown", "parent", "is_published", "in_menu"]
    list_filter = ["is_published"]
    list_select_related = ["parent", "menu_item"]
    search_fields = [*in_languages("title"), "slug", *in_languages("body")]
    prepopulated_fields = {"slug": ["title_en"]}
    autocomplete_fields = ["parent"]
    inlines = [PageMenuItemInline]
    fields = [
        tuple(in_languages("title")),
        ("slug", "parent"),
        tuple(in_languages("body")),
        "is_published",
    ]

    @admin.display(description=_("address"), ordering="address")
    def address_shown(self, page):
        return f"/{page.address}/"

    @admin.display(description=_("in the menu"), boolean=True)
    def in_menu(self, page):
        item = getattr(page, "menu_item", None)
        return bool(item and item.is_shown)


@admin.register(MenuItem)
class MenuItemAdmin(LabModelAdmin):
    list_display = ["__str__", "section", "page", "position", "is_shown"]
    list_editable = ["position", "is_shown"]
    list_select_related = ["page"]
    autocomplete_fields = ["page"]
    fields = [("section", "page"), tuple(in_languages("label")), ("position", "is_shown")]


class PostAuthorInline(MemberRowsInline):
    model = PostAuthor
    extra = 1
    autocomplete_fields = ["person"]
    fields = ["position", "person", "confirmed"]

    def get_readonly_fields(self, request, obj=None):
        """Only the author named confirms (the posts list's action), or a lab admin."""
        fields = list(super().get_readonly_fields(request, obj))
        return fields if is_lab_admin(request.user) else [*fields, "confirmed"]


@admin.register(Post)
class PostAdmin(LabModelAdmin):
    owner_lookup = "authors__person"
    list_display = ["title", "date", "author_names", "is_published"]
    list_filter = ["is_published"]
    date_hierarchy = "date"
    search_fields = [*in_languages("title"), "slug", "authors__person__name"]
    prepopulated_fields = {"slug": ["title_en"]}
    inlines = [PostAuthorInline]
    actions = ["confirm_authorship", "decline_authorship"]
    autocomplete_fields = ["featured_image", "tags"]
    fields = [
        tuple(in_languages("title")),
        ("slug", "date"),
        tuple(in_languages("summary")),
        tuple(in_languages("body")),
        ("featured_image", "tags"),
        "is_published",
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("authors__person")

    def save_formset(self, request, form, formset, change):
        """A member may name other members as authors, but each is shown as one only once
        they confirm: a row a member adds or points at someone else is unconfirmed (a lab
        admin's naming needs no confirmation)."""
        if formset.model is PostAuthor and self.is_member_editor(request):
            me = member_person(request.user)
            deleted = set(map(id, formset.deleted_forms))
            for row in formset.forms:
                if id(row) in deleted or not row.has_changed():
                    continue
                if row.instance.pk is None or "person" in row.changed_data:
                    row.instance.confirmed = me is not None and row.instance.person_id == me.pk
        super().save_formset(request, form, formset, change)

    def changelist_view(self, request, extra_context=None):
        person = member_person(request.user)
        if person is not None and request.method == "GET":
            waiting = PostAuthor.objects.filter(person=person, confirmed=False).count()
            if waiting:
                message = ngettext(
                    "%(count)d post names you as an author: select it and confirm that you "
                    "are one (or decline), and until then it does not show you as its author.",
                    "%(count)d posts name you as an author: select them and confirm that you "
                    "are one (or decline), and until then they do not show you as their author.",
                    waiting,
                ) % {"count": waiting}
                messages.info(request, message)
        return super().changelist_view(request, extra_context)

    @admin.action(description=_("Confirm that I am an author"))
    def confirm_authorship(self, request, queryset):
        rows = self._my_unconfirmed_rows(request, queryset)
        for row in rows or []:
            row.confirmed = True
            row.save(update_fields=["confirmed"])
        if rows is not None:
            self.message_user(request, gettext("Confirmed: %d post(s).") % len(rows))

    @admin.action(description=_("Decline: I am not an author"))
    def decline_authorship(self, request, queryset):
        rows = self._my_unconfirmed_rows(request, queryset)
        for row in rows or []:
            row.delete()
        if rows is not None:
            self.message_user(request, gettext("Declined: %d post(s).") % len(rows))

    def _my_unconfirmed_rows(self, request, queryset):
        """The author rows naming the user's person that wait for their confirmation on the
        posts chosen; None, and the user told, when the user has no person."""
        person = member_person(request.user)
        if person is None:
            self.message_user(
                request,
                gettext("Only a member linked to a profile confirms being an author."),
                messages.ERROR,
            )
            return None
        return list(PostAuthor.objects.filter(post__in=queryset, person=person, confirmed=False))

    def keep_member_linked(self, post, person):
        """A member's own post stays theirs: they are added as its last author if they left
        themselves off."""
        if not post.authors.filter(person=person).exists():
            last = post.authors.order_by("-position").first()
            post.authors.create(person=person, position=(last.position + 1) if last else 1)

    @admin.display(description=_("authors"))
    def author_names(self, post):
        return ", ".join(
            str(author)
            if author.confirmed
            else gettext("%(name)s (not yet confirmed)") % {"name": author}
            for author in post.authors.all()
        )


@admin.register(Opening)
class OpeningAdmin(LabModelAdmin):
    list_display = ["title", "kind", "posted", "deadline", "closed_on", "listed", "is_published"]
    list_filter = ["kind", "is_published"]
    date_hierarchy = "posted"
    search_fields = [*in_languages("title"), "slug", *in_languages("city")]
    prepopulated_fields = {"slug": ["title_en"]}
    actions = ["close_today"]
    fields = [
        tuple(in_languages("title")),
        ("slug", "kind", "employment_type"),
        ("posted", "deadline", "closed_on"),
        tuple(in_languages("city")),
        tuple(in_languages("street_address")),
        ("country", "remote"),
        tuple(in_languages("description")),
        tuple(in_languages("how_to_apply")),
        "is_published",
    ]

    @admin.display(description=_("listed"), boolean=True)
    def listed(self, opening):
        return opening.is_published and opening.is_open

    @admin.action(description=_("Close the selected openings today"))
    def close_today(self, request, queryset):
        """Each open opening closed today (its deadline and posting date as they were),
        saved one by one so history and the page versions follow."""
        today = timezone.localdate()
        closed = 0
        for opening in queryset.filter(Q(closed_on__isnull=True) | Q(closed_on__gt=today)):
            if not self.has_change_permission(request, opening):
                continue
            opening.closed_on = max(today, opening.posted)
            opening.save(update_fields=["closed_on"])
            closed += 1
        self.message_user(request, _("%(count)d opening(s) closed today.") % {"count": closed})


@admin.register(Theme)
class ThemeAdmin(LabModelAdmin):
    list_display = ["title", "position", "start", "end", "member_count", "is_published"]
    list_editable = ["position"]
    list_filter = ["is_published"]
    search_fields = [*in_languages("title"), "slug"]
    prepopulated_fields = {"slug": ["title_en"]}
    autocomplete_fields = ["featured_image", "tags", "members", "publications", "talks"]
    fields = [
        tuple(in_languages("title")),
        ("slug", "position"),
        tuple(in_languages("summary")),
        tuple(in_languages("body")),
        "members",
        "publications",
        "talks",
        ("code_url", "data_url"),
        ("start", "end"),
        ("featured_image", "tags"),
        "is_published",
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("members")

    @admin.display(description=_("members"))
    def member_count(self, theme):
        return len(theme.members.all())


@admin.register(HomeSection)
class HomeSectionAdmin(LabModelAdmin):
    """The home page's sections: which show, in what order, under what heading; the
    banner's image, text and link, the contact section's map."""

    list_display = ["__str__", "kind", "position", "is_shown"]
    list_editable = ["position", "is_shown"]
    fieldsets = [
        (None, {"fields": [("kind", "position", "is_shown"), tuple(in_languages("heading"))]}),
        (_("News, publications, posts, research themes, openings"), {"fields": ["count"]}),
        (
            _("Banner"),
            {
                "fields": [
                    "image",
                    tuple(in_languages("image_alt")),
                    tuple(in_languages("text")),
                    "link_url",
                    tuple(in_languages("link_label")),
                ]
            },
        ),
        (_("Contact"), {"fields": ["map_url"]}),
    ]


class CourseTeacherInline(admin.TabularInline):
    """Who taught the course: lab members picked by name, others written out."""

    model = CourseTeacher
    extra = 1
    autocomplete_fields = ["person"]
    fields = ["position", "person", "name", "role"]


@admin.register(Course)
class CourseAdmin(LabModelAdmin):
    list_display = ["title", "code", "term", "start", "institution", "is_published"]
    list_filter = ["is_published"]
    search_fields = [*in_languages("title"), "code", "slug", "teachers__person__name"]
    prepopulated_fields = {"slug": ["title_en"]}
    inlines = [CourseTeacherInline]
    autocomplete_fields = ["featured_image", "tags"]
    fields = [
        tuple(in_languages("title")),
        ("code", "slug"),
        (*in_languages("term"), "start"),
        tuple(in_languages("institution")),
        tuple(in_languages("description")),
        ("page_url", "syllabus_url"),
        ("materials_url", "video_url"),
        ("featured_image", "tags"),
        "is_published",
    ]
