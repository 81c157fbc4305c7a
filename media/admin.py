"""The media library in the admin: images with their alt text, caption and credit, where
each is used, and galleries of them."""

from django.contrib import admin
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from core.languages import in_languages
from lab.editing import LabModelAdmin
from media.models import Gallery, GalleryItem, MediaItem
from media.references import picture


@admin.register(MediaItem)
class MediaItemAdmin(LabModelAdmin):
    list_display = ["preview", "name", "alt_en", "size", "uploaded"]
    list_display_links = ["preview", "name"]
    list_filter = ["awaits_alt_text"]  # the images a site import brought in without it
    search_fields = ["name", *in_languages("alt"), *in_languages("caption"), "credit"]
    date_hierarchy = "uploaded"
    prepopulated_fields = {"name": ["alt_en"]}
    readonly_fields = ["preview", "how_to_use", "where_used"]
    fields = [
        "image",
        "preview",
        "name",
        "how_to_use",
        tuple(in_languages("alt")),
        tuple(in_languages("caption")),
        "credit",
        "where_used",
    ]

    @admin.display(description=_("image"))
    def preview(self, item):
        if not item.pk or not item.width:
            return "—"
        return picture(item, sizes="160px", lazy=True, css_class="media-preview")

    @admin.display(description=_("size"))
    def size(self, item):
        return f"{item.width} × {item.height}" if item.width else "—"

    @admin.display(description=_("in a text"))
    def how_to_use(self, item):
        if not item.pk:
            return _("Once saved: ![what it shows](media:NAME) in any Markdown text.")
        return format_html(
            "<code>![{}](media:{})</code> {}",
            item.alt_en,
            item.name,
            _(
                "shows it as a figure with its caption; a title after the name replaces the "
                'caption: ![…](media:{name} "Our new cluster").'
            ).format(name=item.name),
        )

    @admin.display(description=_("where it is used"))
    def where_used(self, item):
        if not item.pk:
            return "—"
        uses = item.uses()
        if not uses:
            return _("Nowhere yet: it may be deleted.")
        return format_html(
            "<ul>{}</ul>",
            format_html_join("", "<li>{}: {}</li>", ((u._meta.verbose_name, str(u)) for u in uses)),
        )

    def get_deleted_objects(self, objs, request):
        """The delete page names, beside the rows whose foreign keys protect an image
        (featured images, galleries), the texts that show it: nothing is deleted then."""
        deleted, model_count, perms_needed, protected = super().get_deleted_objects(objs, request)
        protected = list(protected)
        for item in objs:
            protected += [
                format_html(
                    "{} “{}” {}",
                    row._meta.verbose_name.capitalize(),
                    row,
                    _("shows “%s” in its text") % item.name,
                )
                for row in item.used_in_texts()
            ]
        return deleted, model_count, perms_needed, protected

    def delete_queryset(self, request, queryset):
        for item in queryset:  # each item's own delete: its files go with it
            item.delete()


class GalleryItemInline(admin.TabularInline):
    model = GalleryItem
    extra = 3
    autocomplete_fields = ["item"]
    fields = ["position", "item"]


@admin.register(Gallery)
class GalleryAdmin(LabModelAdmin):
    list_display = ["name", "__str__", "image_count"]
    search_fields = ["name", *in_languages("title")]
    prepopulated_fields = {"name": ["title_en"]}
    inlines = [GalleryItemInline]
    fields = ["name", tuple(in_languages("title"))]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("entries")

    @admin.display(description=_("images"))
    def image_count(self, gallery):
        return len(gallery.entries.all())
