"""Public pages for lab members: the team page and each member's profile."""

from typing import NamedTuple

from django.db.models import Prefetch
from django.views.generic import DetailView, ListView

from labsite.models import LabSettings
from people.models import Education, NewsItem, Person


class TeamView(ListView):
    """Current members grouped by role in the lab's chosen order, then alumni."""

    template_name = "people/team.html"
    context_object_name = "people"

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
        return context


class ProfileView(DetailView):
    """A member's profile: every section that has data, empty ones left out."""

    template_name = "people/profile.html"
    context_object_name = "person"

    def get_queryset(self):
        return Person.objects.published().prefetch_related(
            "links",
            Prefetch("news", queryset=NewsItem.objects.published()),
            Prefetch(
                "education",
                queryset=Education.objects.prefetch_related(
                    Prefetch("advisors", queryset=Person.objects.published())
                ),
            ),
            "experience",
            "service",
            "projects",
            "contributions",
            "writing",
            "reported_figures",
            "extra_sections",
        )

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["sections"] = _profile_sections(self.object)
        return context


class Section(NamedTuple):
    """One section of a profile: its anchor, heading, partial template and content."""

    anchor: str
    title: str
    template: str
    content: object


def _profile_sections(person):
    """The profile's sections in page order, leaving out those with nothing to show."""
    sections = [
        Section("about", "About", "people/sections/_about.html", person.bio),
        Section("now", "Now", "people/sections/_now.html", person.now),
        Section("news", "News", "people/sections/_news.html", person.news.all()),
        Section(
            "projects",
            "Open Source & Projects",
            "people/sections/_projects.html",
            person.projects.all(),
        ),
        Section(
            "contributions",
            "Open-Source Contributions",
            "people/sections/_contributions.html",
            person.contributions.all(),
        ),
        Section(
            "experience", "Experience", "people/sections/_experience.html", person.experience.all()
        ),
        Section(
            "education", "Education", "people/sections/_education.html", person.education.all()
        ),
        Section(
            "service", "Academic Service", "people/sections/_service.html", person.service.all()
        ),
        Section("writing", "Writing", "people/sections/_writing.html", person.writing.all()),
    ]
    sections += [
        Section(f"more-{extra.pk}", extra.title, "people/sections/_extra.html", extra)
        for extra in person.extra_sections.all()
    ]
    return [section for section in sections if section.content]
