"""Admin for the lab's own pages, the site's menu, the home page's sections, its openings,
research themes and courses (lab admins only), and for posts (lab admins all, a member those
they are an author of)."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from core.languages import in_languages
from lab.editing import LabModelAdmin, MemberRowsInline
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
    fields = ["position", "person"]


@admin.register(Post)
class PostAdmin(LabModelAdmin):
    owner_lookup = "authors__person"
    list_display = ["title", "date", "author_names", "is_published"]
    list_filter = ["is_published"]
    date_hierarchy = "date"
    search_fields = [*in_languages("title"), "slug", "authors__person__name"]
    prepopulated_fields = {"slug": ["title_en"]}
    inlines = [PostAuthorInline]
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

    def keep_member_linked(self, post, person):
        """A member's own post stays theirs: they are added as its last author if they left
        themselves off."""
        if not post.authors.filter(person=person).exists():
            last = post.authors.order_by("-position").first()
            post.authors.create(person=person, position=(last.position + 1) if last else 1)

    @admin.display(description=_("authors"))
    def author_names(self, post):
        return ", ".join(str(author) for author in post.authors.all())


@admin.register(Opening)
class OpeningAdmin(LabModelAdmin):
    list_display = ["title", "kind", "posted", "deadline", "listed", "is_published"]
    list_filter = ["kind", "is_published"]
    date_hierarchy = "posted"
    search_fields = [*in_languages("title"), "slug", "city"]
    prepopulated_fields = {"slug": ["title_en"]}
    fields = [
        tuple(in_languages("title")),
        ("slug", "kind"),
        ("posted", "deadline"),
        ("city", "country", "remote"),
        tuple(in_languages("description")),
        tuple(in_languages("how_to_apply")),
        "is_published",
    ]

    @admin.display(description=_("listed"), boolean=True)
    def listed(self, opening):
        return opening.is_published and opening.is_open


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
