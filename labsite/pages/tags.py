"""The tags' pages: every tag in use (/tags/), and a tag's page listing everything with it
(/tags/<slug>/): the rows of each section the registry marks `tagged` (lab/sections.py:
papers, posts, talks, research themes and courses), each as its own list shows them."""

from django.db.models import Q
from django.http import Http404
from django.utils.module_loading import import_string
from django.views.generic import DetailView, ListView

from lab import sections
from publications import listing
from publications.authors import merge_legends
from tags.models import Tag


def _tagged(tag):
    """Each tagged section, in the page's order, as the context its fragment reads: its
    heading, anchor and template, and its published rows with `tag` ("rows", empty when
    none has it), in its own list's order: a query or two a section."""
    shown = []
    for section in sections.tagged_sections():
        rows = section.rows.public_rows().filter(tags=tag)
        context = import_string(section.tagged.builder)(rows)
        context.update(
            heading=section.label,
            anchor=section.tagged.anchor,
            template=f"labsite/tagged/_{section.key}.html",
        )
        shown.append(context)
    return shown


def tags_in_use():
    """Tags that some published item carries (what /tags/ and the sitemap list), through
    the relation each tagged section's `tags` field gives the tag (`tag.posts`...)."""
    carried = Q()
    for section in sections.tagged_sections():
        public = section.rows.public_rows()
        relation = public.model._meta.get_field("tags").related_query_name()
        carried |= Q(**{f"{relation}__in": public.values("pk")})
    return Tag.objects.filter(pk__in=Tag.objects.filter(carried).values("pk"))


# What each tagged section's fragment reads (the registry names these by `tagged.builder`):
# the section's public rows with the tag, as its own list shows them.


def papers(rows):
    """Newest first, as the publication list writes them, and the legend of their authors'
    markers."""
    entries = listing.entries(listing.papers(rows.order_by("-date")))
    return {"rows": entries, "legend": merge_legends(entries)}


def posts(rows):
    return {"rows": list(rows.for_listing())}


def talks(rows):
    return {"rows": list(rows.for_listing())}


def themes(rows):
    return {"rows": list(rows.select_related("featured_image"))}


def courses(rows):
    return {
        "rows": list(rows.for_listing().select_related("featured_image").prefetch_related("tags"))
    }


class TagListView(ListView):
    """Every tag a published item carries, by name."""

    template_name = "labsite/tag_list.html"
    context_object_name = "tags"

    def get_queryset(self):
        return tags_in_use()


class TagView(DetailView):
    """Everything published with the tag; a tag nothing published carries has no page."""

    template_name = "labsite/tag_detail.html"
    context_object_name = "tag"
    queryset = Tag.objects.all()

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tagged = _tagged(self.object)
        if not any(section["rows"] for section in tagged):
            raise Http404("Nothing published carries this tag.")
        context["tagged"] = tagged
        return context
