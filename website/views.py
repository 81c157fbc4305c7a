"""The lab's own pages, each at its address; the lab's posts: their list, a page each and
their feed; the lab's openings: the open ones listed, a page each; the lab's research
themes: their list and a page each; the lab's courses: by year, and a page each."""

import datetime

from django import forms
from django.contrib.syndication.views import Feed
from django.db.models import OuterRef, Prefetch, Subquery
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape, strip_tags
from django.utils.safestring import mark_safe
from django.utils.text import Truncator
from django.utils.translation import gettext as _
from django.views.generic import DetailView, ListView

from core import queries
from core.feeds import AtomWithContent
from core.json_ld import json_ld
from core.markup import render_markdown, render_page_markdown
from lab.models import LabSettings
from people.models import Person
from publications import listing
from publications.authors import merge_legends
from publications.models import Publication
from tags.forms import TagFilterField
from talks.models import Talk
from website.models import Course, Opening, Page, Post, PostAuthor, Theme


class PageView(DetailView):
    """A published page: its title and body in the page's language (else the other), and
    the published pages under it."""

    template_name = "website/page.html"
    context_object_name = "page"
    slug_field = slug_url_kwarg = "address"
    query_parameters = ()  # what the page cache keys on

    def get_queryset(self):
        return Page.objects.published().select_related("parent")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        page = self.object
        context["subpages"] = page.children.published()
        context["parent"] = page.parent if page.parent_id and page.parent.is_published else None
        return context


class PostFilter(forms.Form):
    """The posts list's filter: a tag its posts carry."""

    tag = TagFilterField()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        shown = Post.objects.published().values("pk")
        self.fields["tag"].carried_by("posts", shown)


class PostListView(ListView):
    """The lab's published posts, newest first, each with its authors, summary, tags and
    featured image; `?tag=` narrows them to a tag."""

    template_name = "website/post_list.html"
    context_object_name = "posts"
    paginate_by = 20

    @staticmethod
    def canonical_query(params):  # what the page cache keys on
        return queries.encode(queries.paginated(queries.form_pairs(PostFilter(params)), params))

    def get_queryset(self):
        self.filter_form = PostFilter(self.request.GET)
        posts = Post.objects.published().for_listing()
        if self.filter_form.is_valid() and (tag := self.filter_form.cleaned_data["tag"]):
            posts = posts.filter(tags=tag)
        return posts

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        params = self.request.GET.copy()
        params.pop("page", None)
        context.update(
            filter_form=self.filter_form,
            is_filtered=bool(params),
            query_string=params.urlencode(),
            # the form only where there are tags to choose
            show_filter=bool(self.filter_form.fields["tag"].queryset),
        )
        return context


class PostView(DetailView):
    """A published post: its title, date, authors (linked to their profiles) and body, and
    schema.org BlogPosting data for search engines."""

    template_name = "website/post_detail.html"
    context_object_name = "post"

    def get_queryset(self):
        return Post.objects.published().for_listing()

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["post_json_ld"] = mark_safe(json_ld(_blog_posting(self.request, self.object)))
        return context


def _blog_posting(request, post):
    """schema.org BlogPosting: what Google reads for an article's headline, date and authors."""
    data = {
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        "headline": post.title,
        "datePublished": post.date.isoformat(),
        "url": request.build_absolute_uri(post.get_absolute_url()),
        "author": [
            {
                "@type": "Person",
                "name": author.person.name,
                "url": request.build_absolute_uri(author.person.get_absolute_url()),
            }
            for author in post.authors.all()
        ],
        "publisher": {"@type": "Organization", "name": LabSettings.load().name},
    }
    if summary := post_summary(post):
        data["description"] = summary
    if post.featured_image:
        data["image"] = request.build_absolute_uri(post.featured_image.share_image.url)
    return data


def post_summary(post, words=40):
    """The post's summary, else its body's beginning as plain text."""
    if post.summary:
        return post.summary
    # render_markdown, not the page's: no contents list at the beginning of the words
    return Truncator(strip_tags(render_markdown(post.body))).words(words)


class PostsFeed(Feed):
    """The lab's newest posts, for feed readers, as Atom: each with its authors and its
    whole body, published on its date and updated when it was last edited (RFC 4287 wants
    an `updated` on every entry; a reader uses it to show an edit again). The lab is the
    feed's author, which RFC 4287 asks for where an entry names nobody."""

    feed_type = AtomWithContent

    def title(self):
        return _("%(lab)s: posts") % {"lab": LabSettings.load().name}

    def author_name(self):
        return LabSettings.load().name

    def subtitle(self):
        return _("Posts from %(lab)s.") % {"lab": LabSettings.load().name}

    def link(self):
        return reverse("posts:list")

    def items(self):
        last_edit = Post.history.filter(id=OuterRef("pk")).order_by("-history_date")
        # the confirmed authors alone: a feed shows no tags or pictures
        authors = Prefetch(
            "authors", queryset=PostAuthor.objects.confirmed().select_related("person")
        )
        return (
            Post.objects.published()
            .prefetch_related(authors)
            .annotate(last_edit=Subquery(last_edit.values("history_date")[:1]))[:30]
        )

    def item_title(self, post):
        return post.title

    def item_description(self, post):
        return escape(post_summary(post))

    def item_extra_kwargs(self, post):
        return {"content": render_page_markdown(post.body)}

    def item_link(self, post):
        return post.get_absolute_url()

    def item_author_name(self, post):
        return ", ".join(author.person.name for author in post.authors.all()) or None

    def item_pubdate(self, post):
        return datetime.datetime.combine(post.date, datetime.time(), tzinfo=datetime.UTC)

    def item_updateddate(self, post):
        """Its last edit, else (a post without history, or edited before its date) its
        date."""
        published = self.item_pubdate(post)
        return max(published, post.last_edit) if post.last_edit else published


class OpeningListView(ListView):
    """The openings still open (deadline today or later, or none), soonest deadline first."""

    template_name = "website/opening_list.html"
    context_object_name = "openings"

    def get_queryset(self):
        return Opening.objects.open()


class OpeningView(DetailView):
    """A published opening, open or closed (a closed one says so), with schema.org
    JobPosting data for search engines' job listings."""

    template_name = "website/opening_detail.html"
    context_object_name = "opening"

    def get_queryset(self):
        return Opening.objects.published()

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        data = job_posting(self.request, self.object)
        context["opening_json_ld"] = mark_safe(json_ld(data))
        return context


def job_posting(request, opening):
    """schema.org JobPosting with what Google's job-posting guidelines require (title,
    description, datePosted, hiringOrganization, jobLocation with its address) and
    recommend (employmentType; validThrough when there is a deadline, or the day it closed
    early), and, for remote work, jobLocationType and applicantLocationRequirements. The
    address is the opening's own: its street address, else the lab's where the lab's
    address names the opening's city, else the city alone."""
    lab = LabSettings.load()
    home = request.build_absolute_uri(reverse("home"))
    organization = {"@type": "Organization", "name": lab.name, "sameAs": home}
    if lab.logo:
        organization["logo"] = request.build_absolute_uri(lab.logo.url)
    address = {
        "@type": "PostalAddress",
        "addressLocality": opening.city,
        "addressCountry": opening.country,
    }
    if street := opening.street_address or _lab_address_in(lab, opening):
        address["streetAddress"] = street
    description = render_page_markdown(opening.description)
    if opening.how_to_apply:
        description += f"<h2>{escape(_('How to apply'))}</h2>"
        description += render_page_markdown(opening.how_to_apply)
    data = {
        "@context": "https://schema.org",
        "@type": "JobPosting",
        "title": opening.title,
        "description": description,
        "datePosted": opening.posted.isoformat(),
        "hiringOrganization": organization,
        "jobLocation": {"@type": "Place", "address": address},
        "url": request.build_absolute_uri(opening.get_absolute_url()),
    }
    if opening.closed_on and (not opening.deadline or opening.closed_on <= opening.deadline):
        # closed early: valid until the start of the day it closed, where the lab is
        end = datetime.datetime.combine(opening.closed_on, datetime.time())
        data["validThrough"] = timezone.make_aware(end).isoformat()
    elif opening.deadline:
        # the end of the deadline's day where the lab is
        end = datetime.datetime.combine(opening.deadline, datetime.time(23, 59, 59))
        data["validThrough"] = timezone.make_aware(end).isoformat()
    if opening.remote:
        data["jobLocationType"] = "TELECOMMUTE"
        data["applicantLocationRequirements"] = {"@type": "Country", "name": opening.country}
    data["employmentType"] = opening.employment_type
    return data


def _lab_address_in(lab, opening):
    """The lab's street address on one line when it names the opening's city (in either
    language), else "": an opening in another city is not at the lab."""
    lines = [line.strip() for line in lab.address.splitlines() if line.strip()]
    written = " ".join([lab.address_en, lab.address_zh_hans]).casefold()
    cities = {c.strip().casefold() for c in (opening.city_en, opening.city_zh_hans) if c.strip()}
    return ", ".join(lines) if lines and any(city in written for city in cities) else ""


def _published_members():
    return Prefetch("members", queryset=Person.objects.published().order_by("name"))


class ThemeListView(ListView):
    """The lab's published research themes in the lab admin's order, each with its summary
    and members."""

    template_name = "website/theme_list.html"
    context_object_name = "themes"

    def get_queryset(self):
        return (
            Theme.objects.published()
            .select_related("featured_image")
            .prefetch_related(_published_members(), "tags")
        )


class ThemeView(DetailView):
    """A published research theme: what it is, who works on it, its papers (as the lists
    print them) and talks, its code and data."""

    template_name = "website/theme_detail.html"
    context_object_name = "theme"

    def get_queryset(self):
        return (
            Theme.objects.published()
            .select_related("featured_image")
            .prefetch_related(_published_members(), "tags")
        )

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        theme = self.object
        papers = Publication.objects.published().filter(themes=theme)
        context["publications"] = listing.entries(listing.papers(papers))
        context["legend"] = merge_legends(context["publications"])
        context["talks"] = list(Talk.objects.published().filter(themes=theme).for_listing())
        return context


class CourseListView(ListView):
    """The lab's published courses, newest first, grouped by the year they began, each with
    its term, institution and teachers in their roles."""

    template_name = "website/course_list.html"
    context_object_name = "courses"

    def get_queryset(self):
        return (
            Course.objects.published()
            .for_listing()
            .select_related("featured_image")
            .prefetch_related("tags")
        )


class CourseView(DetailView):
    """A published course: its code, term, institution, links and description, and who
    taught it in which role (members linked to their profiles). The address a course had
    before its address carried its year is sent, permanently, to the one it has now."""

    template_name = "website/course_detail.html"
    context_object_name = "course"

    def get(self, request, *args, **kwargs):
        try:
            return super().get(request, *args, **kwargs)
        except Http404:
            moved = Course.former_address(kwargs["slug"])
            if moved is None or not Course.objects.published().filter(pk=moved.pk).exists():
                raise
            return redirect(moved, permanent=True)

    def get_queryset(self):
        return (
            Course.objects.published()
            .for_listing()
            .select_related("featured_image")
            .prefetch_related("tags")
        )
