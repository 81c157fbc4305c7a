"""Publications, the venues they appear in, and their ordered authorships with roles."""

import datetime
import functools
import re
import unicodedata
import uuid

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from core import changes
from core.documents import PdfField, pdf_upload_path
from core.identifiers import OrcidField, normalize_doi
from core.markup import DESCRIPTION_LIMIT, SUMMARY_LIMIT, text_limit
from core.names import initials, name_parts
from core.partial_dates import PartialDateField
from core.slugs import unique_slug
from core.weblinks import SiteOrWebURLField, WebURLField
from lab.models import PublicationKind
from media.fields import FeaturedImageField
from people.models import Person, Project
from publications import roles
from publications.presentation import PublicationPresentation
from tags.models import TagsField

_ARXIV = re.compile(r"^(?:arxiv:)?(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?$", re.I)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def title_key(title):
    """A title reduced to what identifies it ("KVCache-centric, Serving!" → "kvcachecentric
    serving" without spaces): how imports recognise a work without a DOI."""
    text = unicodedata.normalize("NFKD", title or "").casefold()
    return re.sub(r"[\W_]+", "", text)[:300]


class Venue(models.Model):
    class Kind(models.TextChoices):
        CONFERENCE = "conference", _("Conference")
        JOURNAL = "journal", _("Journal")
        WORKSHOP = "workshop", _("Workshop")
        PREPRINT = "preprint", _("Preprint server")
        BOOK = "book", _("Book or series")
        PATENT_OFFICE = "patent-office", _("Patent office")
        OTHER = "other", _("Other")

    short_name = models.CharField(
        max_length=60,
        unique=True,
        help_text="As lists print it, e.g. “SOSP”, “ACM ToS”, “FAISys Workshop”.",
    )
    name = models.CharField(
        "full name", max_length=300, blank=True, help_text="e.g. “ACM Transactions on Storage”."
    )
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.CONFERENCE)
    publisher = models.CharField(max_length=200, blank=True)
    issn = models.CharField(
        "ISSN",
        max_length=100,
        blank=True,
        help_text="Comma-separated print and electronic ISSNs; used to match imported papers.",
    )
    url = WebURLField("URL", blank=True)
    aliases = models.TextField(
        blank=True,
        validators=[text_limit(SUMMARY_LIMIT)],
        help_text="One per line: other names imports may give this venue, e.g. “USENIX OSDI” "
        "or “Proceedings of the 18th USENIX Symposium on Operating Systems Design and "
        "Implementation”. Years and ordinals are ignored when names are compared.",
    )
    dblp_key = models.CharField(
        "DBLP key",
        max_length=100,
        blank=True,
        validators=[
            RegexValidator(r"^(conf|journals)/[\w-]+$", "A DBLP key looks like conf/osdi.")
        ],
        help_text="The venue's key on dblp.org, e.g. “conf/osdi” or “journals/tos”; "
        "entries exported from DBLP are matched by it.",
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["short_name"]

    def __str__(self):
        return self.short_name

    @property
    def full_name(self):
        return self.name or self.short_name

    @property
    def is_journal(self):
        return self.kind == self.Kind.JOURNAL

    def issns(self):
        return [i.strip() for i in self.issn.split(",") if i.strip()]

    @transaction.atomic
    def absorb(self, others):
        """Merge `others` into this venue: their papers move here (each change recorded),
        their names become aliases and their ISSNs, DBLP key and address fill what this one
        lacks, so later imports naming them land here; then they are deleted."""
        for other in others:
            if other.pk == self.pk:
                continue
            for publication in other.publications.all():
                publication.venue = self
                publication.save()
            known = {n.casefold() for n in self.names()}
            aliases = [a for a in self.aliases.splitlines() if a.strip()]
            aliases += [n for n in other.names() if n.casefold() not in known]
            self.aliases = "\n".join(aliases)
            self.issn = ", ".join(dict.fromkeys([*self.issns(), *other.issns()]))
            self.dblp_key = self.dblp_key or other.dblp_key
            self.url = self.url or other.url
            self.name = self.name or other.name
            self.publisher = self.publisher or other.publisher
            other.delete()
        self.save()

    def names(self):
        """Every name the venue goes by: short name, full name and aliases."""
        aliases = [a.strip() for a in self.aliases.splitlines() if a.strip()]
        return [n for n in (self.short_name, self.name, *aliases) if n]


class PublicationQuerySet(models.QuerySet):
    def published(self):
        """Publications shown on the site: every status but drafts hidden by the admin; on a
        personal site (PERSONAL_SITE), only those its owner is an author of."""
        shown = self.filter(is_published=True)
        if settings.PERSONAL_SITE:
            owner = Authorship.objects.filter(person__slug=settings.PERSONAL_SITE)
            shown = shown.filter(pk__in=owner.values("publication"))
        return shown

    def for_person(self, person):
        """Publications the person is an author of (by their person link, not printed name).
        A subquery, not a join: no duplicates to remove (DISTINCT over stored entries costs
        a 300-paper profile more than its other queries)."""
        return self.filter(pk__in=Authorship.objects.filter(person=person).values("publication"))

    def for_listing(self):
        """Model instances of what a paper's page shows: venue, ordered authors with their
        people, and awards, in four queries (lists of many papers read plain rows instead:
        publications.listing.papers)."""
        return self.select_related("venue", "featured_image").prefetch_related(
            models.Prefetch("authorships", queryset=Authorship.objects.select_related("person")),
            "awards",
            "tags",
        )

    def in_year(self, year):
        return self.filter(date__startswith=f"{int(year):04d}")

    def with_role(self, role, person=None):
        """Publications where `person` (else any lab member) holds `role`, a slug of
        `publications.roles.ROLES`."""
        holder = Q(authorships__person=person) if person else Q(authorships__person__isnull=False)
        return self.filter(holder & roles.BY_SLUG[role].condition).distinct()

    def search(self, text):
        """Title, DOI, venue or any author name containing `text`."""
        match = Q()
        for word in text.split():
            match &= (
                Q(title__icontains=word)
                | Q(doi__icontains=word)
                | Q(venue__short_name__icontains=word)
                | Q(venue__name__icontains=word)
                | Q(authorships__family_name__icontains=word)
                | Q(authorships__given_name__icontains=word)
                | Q(authorships__person__name__icontains=word)
                | Q(authorships__person__native_name__icontains=word)
            )
        return self.filter(match).distinct()


class Publication(PublicationPresentation, models.Model):
    Kind = PublicationKind  # declared with the lab settings, which choose the harvested ones

    class Status(models.TextChoices):
        PUBLISHED = "published", _("Published")
        ACCEPTED = "accepted", _("Accepted")
        PREPRINT = "preprint", _("Preprint")

    title = models.CharField(
        max_length=500, blank=True, help_text="May be left empty only for a patent."
    )
    slug = models.SlugField(
        max_length=120,
        unique=True,
        blank=True,
        help_text="The end of the paper's address (/publications/…/). Leave empty to make one.",
    )
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.CONFERENCE)
    status = models.CharField(
        max_length=20,
        choices=Status.choices,
        blank=True,
        default="",
        help_text="Leave empty if nobody has said: no page or export then states one.",
    )
    venue = models.ForeignKey(
        Venue,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="publications",
    )
    date = PartialDateField(
        null=True,
        blank=True,
        help_text="Publication date: YYYY or YYYY-MM (YYYY-MM-DD also works).",
    )
    container_title = models.CharField(
        "proceedings or journal title",
        max_length=500,
        blank=True,
        help_text="This paper's own book or journal title as printed, e.g. “Proceedings of "
        "the 29th ACM Symposium on Operating Systems Principles”. Leave empty to show the "
        "venue's full name; a venue is the series, so each year's title belongs here.",
    )
    volume = models.CharField(max_length=40, blank=True)
    issue = models.CharField(max_length=40, blank=True)
    pages = models.CharField(max_length=40, blank=True, help_text="e.g. “1–38” or “e1234”.")
    publisher = models.CharField(
        max_length=200, blank=True, help_text="Only if it differs from the venue's publisher."
    )
    series = models.CharField(
        max_length=200,
        blank=True,
        help_text="A book series, e.g. “Lecture Notes in Computer Science”.",
    )
    address = models.CharField(
        "place",
        max_length=200,
        blank=True,
        help_text="Where it was published or held, e.g. “Seoul, Korea”.",
    )
    issn = models.CharField(
        "ISSN",
        max_length=100,
        blank=True,
        help_text="Only if the paper's record gives one the venue lacks; comma-separated.",
    )
    doi = models.CharField(
        "DOI",
        max_length=200,
        blank=True,
        help_text="e.g. 10.1145/3773772 (a https://doi.org/ link is accepted and shortened).",
    )
    arxiv_id = models.CharField("arXiv id", max_length=40, blank=True, help_text="e.g. 2407.00079.")
    pdf_file = PdfField(
        "PDF file",
        upload_to=pdf_upload_path,
        blank=True,
        help_text="A PDF hosted here (at most 30 MB); search engines are pointed to it.",
    )
    pdf_url = WebURLField("PDF link", blank=True)
    url = WebURLField(
        "paper's page", blank=True, help_text="Its page at the publisher or a repository."
    )
    code_url = WebURLField("code", blank=True)
    # The links a lab may point at its own pages take a site path too ("/themes/kvcache/"),
    # which a Chinese page shows as the Chinese page (core/weblinks.py).
    slides_url = SiteOrWebURLField(
        "slides",
        blank=True,
        help_text="A page or file of this site (/talks/…, shown in the visitor's language) "
        "or a web address (https://…).",
    )
    video_url = WebURLField("video", blank=True)
    project_url = SiteOrWebURLField(
        "project page",
        blank=True,
        help_text="A page of this site (/themes/…, shown in the visitor's language) or a web "
        "address (https://…).",
    )
    poster_url = WebURLField("poster", blank=True)
    supplement_url = WebURLField(
        "supplement", blank=True, help_text="Its appendix or supplementary material."
    )
    blog_url = SiteOrWebURLField(
        "blog post",
        blank=True,
        help_text="A post written about it: one of this site's (/posts/…, shown in the "
        "visitor's language) or a web address (https://…).",
    )
    dataset_url = WebURLField("dataset", blank=True, help_text="The data it made or used.")
    other_url = WebURLField("other link", blank=True)
    other_label = models.CharField(
        "other link label", max_length=40, blank=True, help_text="e.g. “HAL”, “Talk”."
    )
    abstract = models.TextField(
        blank=True,
        validators=[text_limit(DESCRIPTION_LIMIT)],
        help_text="Markdown; shown on the paper's page.",
    )
    citation_count = models.PositiveIntegerField(null=True, blank=True)
    citations_read_on = models.DateField(
        "citations read on", null=True, blank=True, help_text="When the count was read."
    )
    citations_source = models.CharField(
        max_length=60, blank=True, help_text="Where the count was read, e.g. “Crossref”."
    )
    is_selected = models.BooleanField(
        "selected", default=False, help_text="Shown on the home page and the “Selected” list."
    )
    award = models.CharField(
        "award note", max_length=200, blank=True, help_text="e.g. “Best Paper”."
    )
    note = models.CharField(
        max_length=300,
        blank=True,
        help_text="A short note shown with the paper, e.g. “Oral”, “Spotlight”, “CCF-A”.",
    )
    source_fields = models.JSONField(
        "fields kept from the source",
        default=dict,
        blank=True,
        help_text="Fields an import brought that have no place of their own (keywords, "
        "annotation, Google Scholar id, …), by name; written back into BibTeX exports.",
    )
    patent_number = models.CharField(max_length=60, blank=True, help_text="e.g. “10,613,992”.")
    patent_jurisdiction = models.CharField(
        max_length=20, blank=True, help_text="Country or office code, e.g. “US”, “CN”, “EP”."
    )
    bibtex_key = models.CharField(
        "BibTeX key",
        max_length=100,
        blank=True,
        validators=[
            RegexValidator(
                r"^[A-Za-z0-9_:.+/-]+$",
                "A BibTeX key may use letters, digits and _ : . + / - only.",
            )
        ],
        help_text="Leave empty to make one from the first author, year and title.",
    )
    featured_image = FeaturedImageField(related_name="featured_publications")
    tags = TagsField(related_name="publications")
    is_published = models.BooleanField(
        "shown on the site", default=True, help_text="Untick to keep a draft out of every list."
    )
    # indexed: imports look works without a DOI up by it (importing.matching.WorkIndex)
    title_key = models.CharField(max_length=300, blank=True, editable=False, db_index=True)
    imported_values = models.JSONField(
        default=dict,
        blank=True,
        editable=False,
        help_text="The values the last import wrote, by field: a later import tells an "
        "admin's edits from its own by them.",
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    projects: "models.ManyToManyField[Project, ProjectPublication]" = models.ManyToManyField(
        Project, through="ProjectPublication", related_name="publications", blank=True
    )
    objects = PublicationQuerySet.as_manager()
    history = HistoricalRecords()

    class Meta:
        # pk last: one order however the database lays rows out
        ordering = [models.F("date").desc(nulls_last=True), "title", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["doi"],
                condition=~Q(doi=""),
                name="publication_doi_unique_when_set",
                violation_error_message="A publication with this DOI already exists.",
            ),
            models.CheckConstraint(
                condition=~Q(title="") | (Q(kind="patent") & ~Q(patent_number="")),
                name="publication_has_title_or_patent_number",
            ),
            models.CheckConstraint(
                condition=Q(citation_count__isnull=True) | Q(citations_read_on__isnull=False),
                name="publication_citations_have_read_date",
            ),
        ]
        indexes = [
            # /publications/ and profiles list newest first; the year filter is a prefix match
            models.Index(fields=["is_published", "date"], name="publication_public_date"),
        ]

    def __str__(self):
        return self.display_title

    def save(self, *args, **kwargs):
        self.doi = normalize_doi(self.doi) if self.doi else ""
        self.title_key = title_key(self.title)
        if not self.slug:
            self.slug = unique_slug(self, self.display_title)
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("publications:detail", kwargs={"slug": self.slug})

    def clean(self):
        """The publication's own rules, then that no other publication has its DOI."""
        errors = self.rule_errors()
        if self.doi and "doi" not in errors:
            other = Publication.objects.filter(doi=self.doi).exclude(pk=self.pk).first()
            if other:
                errors["doi"] = f"This DOI already belongs to “{other.display_title}”."
        if errors:
            raise ValidationError(errors)

    def check_rules(self):
        """Raise ValidationError for a broken rule of the publication's own (no query): the
        importer's plan calls this, having matched DOIs against every publication itself."""
        if errors := self.rule_errors():
            raise ValidationError(errors)

    def rule_errors(self):
        """{field: message} for each rule of the publication's own it breaks; normalizes the
        DOI and arXiv id on the way."""
        errors: dict[str, object] = {}
        if not self.title and not (self.kind == self.Kind.PATENT and self.patent_number):
            errors["title"] = _("Give the title (only a patent with a number may go without).")
        if self.doi:
            try:
                self.doi = normalize_doi(self.doi)
            except ValidationError as error:
                errors["doi"] = error
        if self.arxiv_id:
            match = _ARXIV.match(self.arxiv_id.strip().removeprefix("https://arxiv.org/abs/"))
            if match:
                self.arxiv_id = match[1]
            else:
                errors["arxiv_id"] = _("Enter an arXiv id such as 2407.00079.")
        if not isinstance(self.source_fields, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in self.source_fields.items()
        ):
            errors["source_fields"] = _('Give the kept fields as {"name": "text", …}.')
        if self.citation_count is not None and not self.citations_read_on:
            errors["citations_read_on"] = _("Say when the citation count was read.")
        return errors

    def park_authorships(self):
        """Move every author row above the real positions, so rows can then be renumbered in
        any order without two sharing a position half-way (one UPDATE query)."""
        self.authorships.update(position=models.F("position") + 10_000)


def is_family_first(given: str, family: str) -> bool:
    """Whether a name is in a script that writes the family name first and the parts
    together: Chinese, Japanese or Korean characters ("马腾")."""
    return bool(_CJK.search(given + family))


@functools.lru_cache(maxsize=20_000)  # a lab's co-authors recur on most of its papers
def printed_names(given: str, family: str, suffix: str = "") -> tuple[str, str]:
    """(the full name, initials and family name) an author list prints for a name: "Teng
    Ma" and "T Ma", "Martin Luther King Jr." and "ML King Jr."; a name in Chinese, Japanese
    or Korean characters family name first and whole ("马腾" both)."""
    if is_family_first(given, family):
        return f"{family}{given}", f"{family}{given}"
    last = f"{family} {suffix}" if suffix else family
    full = f"{given} {last}".strip()
    return full, f"{''.join(initials(given))} {last}" if given else full


class Authorship(models.Model):
    """One entry of a publication's ordered author list."""

    publication = models.ForeignKey(
        Publication, on_delete=models.CASCADE, related_name="authorships"
    )
    position = models.PositiveSmallIntegerField(help_text="1 for the first author.")
    given_name = models.CharField(
        max_length=100, blank=True, help_text="As printed: “Teng”, or just “T”."
    )
    family_name = models.CharField(
        max_length=100,
        blank=True,
        help_text="As printed: “Ma”. For a group author, put its whole name here.",
    )
    suffix = models.CharField(
        max_length=20,
        blank=True,
        help_text="A generational suffix, as printed: “Jr.”, “III”, “Filho”, “Neto”. Not "
        "part of the family name: sorting, initials and citations keep it apart.",
    )
    person = models.ForeignKey(
        Person,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="authorships",
        help_text="The lab member this author is, if any. Highlighting and badges follow "
        "this link, never the printed name.",
    )
    orcid = OrcidField("ORCID iD", blank=True)
    author_ids = models.JSONField(
        "author ids",
        default=dict,
        blank=True,
        help_text="The author's ids at OpenAlex, DBLP and Semantic Scholar, as harvests "
        'found them, e.g. {"openalex": "A5023888391"}; they recognise the lab member.',
    )
    affiliation = models.CharField(max_length=300, blank=True)
    is_equal_contribution = models.BooleanField(
        "co-first", default=False, help_text="Equal contribution (co-first author)."
    )
    is_corresponding = models.BooleanField("corresponding", default=False)
    is_unlisted = models.BooleanField(
        "unlisted authors",
        default=False,
        help_text="This row stands for authors not recorded here; it prints as “…” "
        "(“et al.” at the end). Leave the names empty.",
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["publication", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["publication", "position"], name="authorship_position_unique"
            ),
            models.CheckConstraint(
                condition=Q(is_unlisted=True) | ~Q(family_name=""),
                name="authorship_has_family_name",
            ),
            models.CheckConstraint(
                condition=Q(is_unlisted=False)
                | Q(
                    person__isnull=True,
                    given_name="",
                    family_name="",
                    is_equal_contribution=False,
                    is_corresponding=False,
                ),
                name="authorship_unlisted_row_is_bare",
            ),
        ]
        indexes = [
            # a person's publications: the profile and the member filter
            models.Index(fields=["person", "publication"], name="authorship_person_pub"),
        ]

    def __str__(self):
        return "…" if self.is_unlisted else self.full_name

    def clean(self):
        if not self.is_unlisted and not (self.given_name or self.family_name) and self.person:
            # A member chosen with no printed name: their name as author lists print it.
            self.given_name, self.family_name, self.suffix = name_parts(self.person.name)
        if self.is_unlisted:
            if self.given_name or self.family_name or self.person_id:
                raise ValidationError(_("An “unlisted authors” row has no name and no person."))
            if self.is_equal_contribution or self.is_corresponding:
                raise ValidationError(_("An “unlisted authors” row cannot carry a role."))
        elif not self.family_name:
            raise ValidationError({"family_name": _("Give at least the family name.")})

    @property
    def is_cjk(self):
        return bool(_CJK.search(self.given_name + self.family_name))

    @property
    def full_name(self):
        return printed_names(self.given_name, self.family_name, self.suffix)[0]

    @property
    def short_name(self):
        """Initials and family name, as the seeds print them: “T Ma”, “JH Kim”."""
        return printed_names(self.given_name, self.family_name, self.suffix)[1]


class ProjectPublication(models.Model):
    """A publication that came out of a project; the project's card lists it."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE)
    publication = models.ForeignKey(Publication, on_delete=models.CASCADE)
    history = HistoricalRecords()

    class Meta:
        verbose_name = "publication from the project"
        verbose_name_plural = "publications from the project"
        constraints = [
            models.UniqueConstraint(
                fields=["project", "publication"], name="project_lists_a_publication_once"
            )
        ]

    def __str__(self):
        return f"{self.project}: {self.publication}"


class CitationReading(models.Model):
    """One reading of a paper's citation count at a source: the history behind the count the
    paper shows, from which the profile's citation chart is drawn."""

    publication = models.ForeignKey(
        Publication, on_delete=models.CASCADE, related_name="citation_readings"
    )
    source = models.CharField(max_length=60, help_text="e.g. “OpenAlex”.")
    read_on = models.DateField()
    count = models.PositiveIntegerField()

    class Meta:
        ordering = ["publication", "read_on", "source"]
        constraints = [
            models.UniqueConstraint(
                fields=["publication", "source", "read_on"], name="one_reading_per_source_a_day"
            ),
        ]

    def __str__(self):
        return f"{self.count} ({self.source}, {self.read_on})"


class ImportBatch(models.Model):
    """An import between its preview and its confirmation, kept on the server (not in the
    session): the records read so far and, while DOIs or ORCID works are fetched in the
    background, how far that has come. Batches expire after a day."""

    class Status(models.TextChoices):
        FETCHING = "fetching", _("Fetching")
        READY = "ready", _("Ready to confirm")
        FAILED = "failed", _("Failed")
        DONE = "done", _("Imported")

    LIFETIME = datetime.timedelta(days=1)

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.READY)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    records = models.JSONField(default=list, blank=True)
    message = models.TextField(blank=True)

    class Meta:
        verbose_name_plural = "import batches"
        indexes = [
            # expired batches are purged by age
            models.Index(fields=["created"], name="importbatch_created"),
        ]

    def __str__(self):
        return f"Import of {self.created:%Y-%m-%d %H:%M} ({self.get_status_display()})"

    @classmethod
    def live(cls):
        """Batches not yet expired; older ones are deleted on the way (one query)."""
        cutoff = timezone.now() - cls.LIFETIME
        cls.objects.filter(created__lt=cutoff).delete()
        return cls.objects.filter(created__gte=cutoff)


def stamp_papers(model, rows, using, how):
    """core/changes.py's follower of rows: an author row saved or deleted changes its paper,
    and a venue saved (a new one has none) its papers: their `updated`, what stored export
    entries are checked against, moves in the same transaction. A restore's rows (RAW) come
    with their own; rows inserted in bulk come with their papers, saved with them."""
    if model is Authorship and how in (changes.CREATED, changes.SAVED, changes.DELETED):
        papers = {row.publication_id for row in rows}
        Publication.objects.filter(pk__in=papers).update(updated=timezone.now())
    elif model is Venue and how == changes.SAVED:
        Publication.objects.filter(venue__in=rows).update(updated=timezone.now())


class ExportEntry(models.Model):
    """A paper as the citation exports write it, in each format, built by
    `publications.exports.store` (the task worker, after a change commits) from the paper as
    it stood at `stamp` (its `updated`). Every change an export shows moves `updated` in the
    change's own transaction (a change of its author rows or venue included), so an entry
    whose stamp differs from its paper's `updated` is out of date: exports then write that
    paper afresh. Not content: never backed up, never edited, rebuilt after a restore or a
    migrate."""

    publication = models.OneToOneField(
        Publication, on_delete=models.CASCADE, primary_key=True, related_name="export"
    )
    stamp = models.DateTimeField("written from the paper as of")
    # What an entry is written from: a change of these queues the entries' rewrite
    # (publications.tasks).
    written_from = (Publication, Authorship, Venue)
    key = models.TextField("citation key")  # before a duplicate's a, b, …
    bib = models.TextField("BibTeX")
    ris = models.TextField("RIS")
    json = models.TextField("CSL-JSON")  # the item, as the list writes it

    class Meta:
        verbose_name_plural = "export entries"

    def __str__(self):
        return self.key
