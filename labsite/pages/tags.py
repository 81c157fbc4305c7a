"""The tags' pages: every tag in use (/tags/), and a tag's page listing everything with it
(/tags/<slug>/): papers, posts, talks, research themes and courses, each as its own list
shows it."""

from django.db.models import Q
from django.http import Http404
from django.views.generic import DetailView, ListView

from publications import listing
from publications.authors import merge_legends
from publications.models import Publication
from tags.models import Tag
from talks.models import Talk
from website.models import Course, Post, Theme


def _tagged(tag):
    """{kind: [published items with `tag`]}, each kind in its own list's order: a query or
    two per kind."""
    return {
        "publications": listing.entries(
            listing.papers(Publication.objects.published().filter(tags=tag).order_by("-date"))
        ),
        "posts": list(Post.objects.published().filter(tags=tag).for_listing()),
        "talks": list(Talk.objects.published().filter(tags=tag).for_listing()),
        "themes": list(Theme.objects.published().filter(tags=tag).select_related("featured_image")),
        "courses": list(
            Course.objects.published()
            .filter(tags=tag)
            .for_listing()
            .select_related("featured_image")
            .prefetch_related("tags")
        ),
    }


def tags_in_use():
    """Tags that some published item carries (what /tags/ and the sitemap list)."""
    carried = (
        Q(publications__in=Publication.objects.published().values("pk"))
        | Q(posts__in=Post.objects.published().values("pk"))
        | Q(talks__in=Talk.objects.published().values("pk"))
        | Q(themes__in=Theme.objects.published().values("pk"))
        | Q(courses__in=Course.objects.published().values("pk"))
    )
    return Tag.objects.filter(pk__in=Tag.objects.filter(carried).values("pk"))


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
        if not any(tagged.values()):
            raise Http404("Nothing published carries this tag.")
        context.update(tagged, legend=merge_legends(tagged["publications"]))
        return context
