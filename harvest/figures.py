"""Figures kept true: the lab's papers' citation counts read again (each reading kept as
history), and GitHub stars for the projects whose address names a repository."""

import datetime
import re

from django.conf import settings

from core.partial_dates import PartialDate
from people.models import Person, Project
from publications.importing.citations import refresh_counts
from publications.importing.http import JsonClient
from publications.importing.records import ImportProblem
from publications.models import Publication

STARS_LABEL = "GitHub stars"
_REPOSITORY = re.compile(r"^https?://(?:www\.)?github\.com/([\w.-]+)/([\w.-]+?)(?:\.git)?/?$", re.I)


def repository(url: str) -> tuple[str, str] | None:
    """("kvcache-ai", "Mooncake") for https://github.com/kvcache-ai/Mooncake, else None."""
    match = _REPOSITORY.match(url or "")
    return (match[1], match[2]) if match else None


def refresh_citations(
    people: list[Person] | None, client: JsonClient, today: datetime.date
) -> dict[str, object]:
    """Citation counts of the people's papers (all papers with None) from OpenAlex."""
    papers = Publication.objects.exclude(doi="").order_by("pk")
    if people is not None:
        papers = papers.filter(authorships__person__in=people).distinct()
    updated, kept, missing = refresh_counts(list(papers), client, today=today)
    return {"updated": len(updated), "kept": len(kept), "not found": len(missing)}


def refresh_stars(
    people: list[Person] | None, client: JsonClient, today: datetime.date
) -> dict[str, object]:
    """Stars of every project naming a GitHub repository whose figure counts stars or is
    empty; a figure an admin gave another meaning ("6K+ LOC") is left alone."""
    projects = Project.objects.filter(url__icontains="github.com/").order_by("pk")
    if people is not None:
        projects = projects.filter(person__in=people)
    refreshed, errors = 0, []
    for project in projects:
        repo = repository(project.url)
        if repo is None or project.figure_label not in ("", STARS_LABEL):
            continue
        try:
            data = client.get_json(
                f"{settings.GITHUB_API_URL}/repos/{repo[0]}/{repo[1]}",
                {"Accept": "application/vnd.github+json"},
            )
        except ImportProblem as problem:
            errors.append(f"{project.url}: {problem}")
            continue
        stars = data.get("stargazers_count") if isinstance(data, dict) else None
        if isinstance(stars, bool) or not isinstance(stars, int) or stars < 0:
            errors.append(f"{project.url}: GitHub's answer has no star count")
            continue
        project.figure, project.figure_label = f"{stars:,}", STARS_LABEL
        project.figure_source = f"https://github.com/{repo[0]}/{repo[1]}"
        project.figure_read_on = PartialDate(today.year, today.month, today.day)
        project.full_clean()
        project.save()
        refreshed += 1
    return {"refreshed": refreshed, "errors": errors}
