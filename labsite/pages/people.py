"""Public pages for lab members: the team page and each member's profile."""

from typing import NamedTuple

from django.conf import settings
from django.db.models import Prefetch
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.views.generic import DetailView, ListView

from core.json_ld import json_ld
from core.weblinks import is_web_url
from lab.models import LabSettings
from lab.sections import PROFILE_ORDER
from people.models import (
    Education,
    NewsItem,
    Person,
    Project,
    SectionIntroduction,
)
from publications import listing
from publications.models import Publication
from publications.profile import ProfilePapers
from talks.models import Award, Talk
from website.models import Course, Opening, Post

# What each profile section lists, by the name of its relation to Person (None: all rows).
SECTION_RELATIONS = {
    "links": None,
    "news": lambda: NewsItem.objects.published(),
    "education": lambda: Education.objects.prefetch_related(
        # named even where their page is not on this site (a personal site's owner's advisor)
        Prefetch("advisors", queryset=Person.objects.filter(is_published=True))
    ),
    "experience": None,
    "service": None,
    "projects": lambda: Project.objects.prefetch_related(
        "results",
        Prefetch("publications", queryset=Publication.objects.published()),
        Prefetch("talks", queryset=Talk.objects.published()),
    ),
    "contributions": None,
    "writing": None,
    "reported_figures": None,
    "extra_sections": None,
    "section_introductions": None,
}


def section_rows(person):
    """{relation: list of rows} for each of `SECTION_RELATIONS`, querying only the relations the
    person has rows in (`has_<relation>`, from `Person.objects.with_rows_in`): most
    profiles leave half their sections empty."""
    rows = {}
    for name, shown in SECTION_RELATIONS.items():
        if not getattr(person, f"has_{name}"):
            rows[name] = []
            continue
        related = Person._meta.get_field(name)
        queryset = shown() if shown else related.related_model.objects.all()
        rows[name] = list(queryset.filter(**{related.field.name: person}))
    return rows


def profile_people():
    """Published people, each knowing which of their profile's relations hold rows."""
    return Person.objects.published().with_rows_in(
        [
            *SECTION_RELATIONS,
            "talk_speakers",
            "award_recipients",
            "post_authors",
            "course_teachers",
        ]
    )


def talks_and_awards(person):
    """(the person's published talks, their awards), querying only what they have."""
    talks, awards = [], []
    if person.has_talk_speakers:
        talks = list(Talk.objects.published().for_person(person).for_listing())
    if person.has_award_recipients:
        awards = list(Award.objects.published().for_person(person).for_listing())
    return talks, awards


def courses_taught(person):
    """The person's published courses, newest first, each with its teachers (two queries,
    none when they teach none)."""
    if not person.has_course_teachers:
        return []
    return list(Course.objects.published().for_person(person).for_listing())


def join_us(count=None):
    """The openings still listed, as the "Join us" partial (templates/labsite/home/
    _openings.html) reads them, on the home and the team page; None when there are none."""
    openings = list(Opening.objects.open()[:count])
    return {"heading": _("Join us"), "openings": openings} if openings else None


class TeamView(ListView):
    """Current members grouped by role in the lab's chosen order, then alumni."""

    template_name = "people/team.html"
    context_object_name = "people"

    def get(self, request, *args, **kwargs):
        if settings.PERSONAL_SITE:  # a lab of one has no team page
            return redirect("home", permanent=True)
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        return Person.objects.published().current()

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        by_role = {}
        for person in context["people"]:
            by_role.setdefault(person.role, []).append(person)
        labels = dict(Person.Role.choices)
        context["groups"] = [
            (labels[role], by_role[role])
            for role in LabSettings.load().role_order()
            if role in by_role
        ]
        context["alumni"] = Person.objects.published().alumni().order_by("-member_until", "name")
        context["join_us"] = join_us()
        return context


class ProfileView(DetailView):
    """A member's profile: every section that has data, empty ones left out."""

    template_name = "people/profile.html"
    context_object_name = "person"
    canonical_query = staticmethod(ProfilePapers.canonical_query)  # what the page cache keys on

    def get(self, request, *args, **kwargs):
        on_its_address = request.resolver_match and request.resolver_match.url_name == "detail"
        if on_its_address and kwargs.get("slug") == settings.PERSONAL_SITE:
            query = request.META.get("QUERY_STRING", "")
            return redirect(
                Person(slug=kwargs["slug"]).get_absolute_url() + (f"?{query}" if query else ""),
                permanent=True,
            )
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        return profile_people()

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        person = self.object
        publications = listing.papers(Publication.objects.published().for_person(person))
        papers = ProfilePapers.build(person, publications, self.request.GET)
        talks, awards = talks_and_awards(person)
        rows = section_rows(person)
        posts = []
        if person.has_post_authors:
            posts = Post.objects.published().for_person(person).select_related("featured_image")
            posts = list(posts[:_PROFILE_POSTS])
        context["papers"] = papers
        context["rows"] = rows
        courses = courses_taught(person)
        context["sections"] = _profile_sections(person, rows, papers, talks, awards, posts, courses)
        context["person_json_ld"] = mark_safe(
            json_ld(_person_data(self.request, person, rows["links"]))
        )
        return context


def _person_data(request, person, links):
    """schema.org Person for search engines: who they are, where, and their other pages
    (ORCID first) as sameAs."""
    lab = LabSettings.load()
    home = request.build_absolute_uri(reverse("home"))
    data = {
        "@context": "https://schema.org",
        "@type": "Person",
        "name": person.name,
        "url": request.build_absolute_uri(person.get_absolute_url()),
        "memberOf": {"@type": "Organization", "name": lab.name, "url": home},
    }
    if person.native_name:
        data["alternateName"] = person.native_name
    if person.title:
        data["jobTitle"] = person.title
    if person.affiliation:
        data["affiliation"] = {"@type": "Organization", "name": person.affiliation}
    if person.photo:
        data["image"] = request.build_absolute_uri(person.photo.url)
    same_as = [f"https://orcid.org/{person.orcid}"] if person.orcid else []
    same_as += [link.url for link in links if is_web_url(link.url)]
    if same_as:
        data["sameAs"] = same_as
    return data


# The newest posts a profile lists; the posts page holds them all.
_PROFILE_POSTS = 10


class Section(NamedTuple):
    """One section of a profile: its anchor, heading, partial template and content, and the
    introduction its owner wrote for it (a SectionIntroduction, or None)."""

    anchor: str
    title: str
    template: str
    content: object
    introduction: object = None


def _profile_sections(person, rows, papers, talks, awards, posts=(), courses=()):
    """The profile's sections in page order, leaving out those with nothing to show.
    `rows`: `section_rows(person)`."""
    S = SectionIntroduction.Section
    # each part's partial and content; their order is the registry's (lab/sections.py)
    parts = {
        S.NEWS: ("people/sections/_news.html", rows["news"]),
        S.PUBLICATIONS: ("publications/_profile_publications.html", papers),
        S.PROJECTS: ("people/sections/_projects.html", rows["projects"]),
        S.CONTRIBUTIONS: ("people/sections/_contributions.html", rows["contributions"]),
        S.TALKS: ("talks/_profile_talks.html", talks),
        S.TEACHING: ("website/_profile_courses.html", courses),
        S.EXPERIENCE: ("people/sections/_timeline.html", rows["experience"]),
        S.EDUCATION: ("people/sections/_timeline.html", rows["education"]),
        S.AWARDS: ("talks/_profile_awards.html", awards),
        S.SERVICE: ("people/sections/_service.html", rows["service"]),
        S.WRITING: ("people/sections/_writing.html", rows["writing"]),
        S.PATENTS: ("publications/_patents.html", papers.patents),
    }
    introductions = {i.section: i for i in rows["section_introductions"]}
    sections = [
        Section("about", _("About"), "people/sections/_about.html", person.bio),
        Section("now", _("Now"), "people/sections/_now.html", person.now),
    ]
    sections += [
        Section(key, S(key).label, *parts[S(key)], introductions.get(key)) for key in PROFILE_ORDER
    ]
    # the member's posts, after their publications (a section with no introduction)
    after = [section.anchor for section in sections].index(S.PUBLICATIONS.value) + 1
    sections.insert(after, Section("posts", _("Posts"), "website/_profile_posts.html", posts))
    sections += [
        Section(f"more-{extra.pk}", extra.title, "people/sections/_extra.html", extra)
        for extra in rows["extra_sections"]
    ]
    return [section for section in sections if section.content]
