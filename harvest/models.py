"""Harvested works waiting for review (candidates), where each came from, and the report of
each harvest run."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from people.models import Person
from publications.models import Publication


class Source(models.TextChoices):
    ORCID = "orcid", "ORCID"
    OPENALEX = "openalex", "OpenAlex"
    CROSSREF = "crossref", "Crossref"
    DBLP = "dblp", "DBLP"
    ARXIV = "arxiv", "arXiv"
    SEMANTIC_SCHOLAR = "semantic_scholar", "Semantic Scholar"
    EUROPEPMC = "europepmc", "Europe PMC"
    DATACITE = "datacite", "DataCite"


class CandidateQuerySet(models.QuerySet):
    def open(self):
        return self.filter(status=Candidate.Status.OPEN)

    def auto_accepted(self):
        """Accepted by the harvest without review, and not undone."""
        return self.filter(status=Candidate.Status.ACCEPTED).exclude(auto_accepted_from="")

    def for_person(self, person):
        """Candidates harvested for `person` that they have neither disowned nor rejected."""
        return self.filter(people=person).exclude(not_people=person).exclude(rejected_by=person)


class Candidate(models.Model):
    """A work found at one or more sources for lab members, not yet one of the lab's papers.
    The same work from four sources is one candidate with four provenances; every identifier
    it was ever found under is kept (`WorkId`), so a rejected work never comes back."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for review")
        ACCEPTED = "accepted", _("Accepted as a new paper")
        MERGED = "merged", _("Merged into a paper")
        REJECTED = "rejected", _("Rejected")

    title = models.CharField(max_length=1000)
    year = models.PositiveSmallIntegerField(null=True, blank=True)
    record = models.JSONField(
        default=dict,
        help_text="The work as the sources describe it, merged: what accepting it imports.",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    people = models.ManyToManyField(
        Person, related_name="harvest_candidates", help_text="The members it was found for."
    )
    not_people = models.ManyToManyField(
        Person,
        blank=True,
        related_name="disowned_candidates",
        verbose_name="not by",
        help_text="Members who said it is not theirs (a wrong author match); it is never "
        "offered to them again.",
    )
    rejected_by = models.ManyToManyField(
        Person,
        blank=True,
        related_name="rejected_candidates",
        help_text="Members who rejected it for themselves: never offered to them again. It "
        "stays open for the others it was found for; once none of them claims it, it is "
        "rejected. A lab admin's rejection is everyone's.",
    )
    notified = models.ManyToManyField(
        Person, blank=True, related_name="+", help_text="Members whose digest has named it."
    )
    publication = models.ForeignKey(
        Publication,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="harvest_candidates",
        help_text="The lab's paper it became (accepted) or was merged into.",
    )
    version_of = models.ForeignKey(
        Publication,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="other_versions",
        verbose_name="other version of",
        help_text="The lab's paper this is a preprint or the published version of.",
    )
    version_of_candidate = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="other_versions",
        verbose_name="other version of candidate",
    )
    found = models.DateTimeField(auto_now_add=True)
    reviewed = models.DateTimeField(null=True, blank=True, editable=False)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
    )

    # Accepted by the harvest itself (the lab's auto-accept, harvest/review.py): the source
    # whose record named the member, and what accepting made besides the paper (a venue,
    # tags), which undoing removes again. "" and {} for a work a person reviewed.
    auto_accepted_from = models.CharField(
        "auto-accepted from",
        max_length=20,
        blank=True,
        editable=False,
        help_text="The source whose record named the member, when the harvest accepted it "
        "without review.",
    )
    auto_made = models.JSONField(default=dict, blank=True, editable=False)

    objects = CandidateQuerySet.as_manager()
    history = HistoricalRecords()

    class Meta:
        ordering = ["-year", "title", "pk"]
        indexes = [
            # the review list: open candidates, newest first
            models.Index(fields=["status", "-year"], name="candidate_status_year"),
        ]

    def __str__(self):
        return f"{self.title} ({self.year})" if self.year else self.title

    def get_absolute_url(self):
        return reverse("admin:harvest_candidate_change", args=[self.pk])

    def claimants(self):
        """The members it was found for who have not yet said it is not theirs or rejected
        it (a query)."""
        return self.people.exclude(pk__in=self.not_people.values("pk")).exclude(
            pk__in=self.rejected_by.values("pk")
        )

    def other_version_paper_id(self):
        """The pk of the lab's paper this work is another version of: the one it is linked
        to, else the paper a candidate linked to it either way became once accepted or
        merged (a query then), else None. Accepting joins it to that paper; the review
        offers the merge into it."""
        if self.version_of_id:
            return self.version_of_id
        linked = Candidate.objects.filter(
            models.Q(pk=self.version_of_candidate_id) | models.Q(version_of_candidate=self.pk),
            publication__isnull=False,
        )
        return linked.values_list("publication_id", flat=True).order_by("pk").first()


class WorkId(models.Model):
    """One identifier a candidate was found under: a DOI, an arXiv id, a DBLP key, an OpenAlex
    work id, or its title with its year. A work that names any of them is that candidate."""

    class Kind(models.TextChoices):
        DOI = "doi", "DOI"
        ARXIV = "arxiv", "arXiv"
        DBLP = "dblp", "DBLP"
        OPENALEX = "openalex", "OpenAlex"
        TITLE = "title", _("title and year")

    candidate = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="ids")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    value = models.CharField(max_length=500)

    class Meta:
        ordering = ["candidate", "kind", "value"]
        verbose_name = "work identifier"
        constraints = [
            # matching looks up (kind, value) pairs; one work per identifier
            models.UniqueConstraint(fields=["kind", "value"], name="one_candidate_per_work_id"),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} {self.value}"


class Provenance(models.Model):
    """Where and for whom a candidate was found, with what that source said of it."""

    candidate = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="provenances")
    source = models.CharField(max_length=20, choices=Source.choices)
    source_id = models.CharField(
        "id at the source", max_length=500, help_text="The work's own id there."
    )
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="+")
    record = models.JSONField(default=dict)
    found = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["candidate", "source", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["candidate", "source", "source_id", "person"],
                name="one_provenance_per_source_work_and_person",
            ),
        ]

    def __str__(self):
        return f"{self.get_source_display()} {self.source_id}"


class HarvestRun(models.Model):
    """One harvest: when, for whom, from which sources, and what each source gave."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Stopped by an error")

    queued = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    trigger = models.CharField(
        max_length=40, help_text="What started it: the command, the schedule, an admin."
    )
    person = models.ForeignKey(
        Person,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="Empty: every member with an identifier.",
    )
    sources = models.JSONField(default=list, help_text="Empty: every source.")
    dry_run = models.BooleanField(default=False)
    # {source: {"fetched": n, "new": n, "matched": n, "errors": ["…"]}}, plus "figures".
    report = models.JSONField(default=dict)
    message = models.TextField(blank=True)
    # Who does the run, so that one left "running" by an outage or a killed worker is
    # released (harvest/runs.py): the task queued for it, the process that started it.
    task_id = models.CharField(max_length=64, blank=True, editable=False)
    worker = models.CharField(
        max_length=200, blank=True, editable=False, help_text="host:process id"
    )

    class Meta:
        ordering = ["-queued"]
        verbose_name = "harvest run"

    def __str__(self):
        return f"Harvest of {self.queued:%Y-%m-%d %H:%M}"

    def get_absolute_url(self):
        return reverse("admin:harvest_harvestrun_change", args=[self.pk])
