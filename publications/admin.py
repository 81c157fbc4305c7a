"""Admin for publications: the paper with its ordered authors inline, and venues."""

import re

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, Prefetch
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from core.id_fields import is_id
from core.kept_uploads import KeptFileField
from core.names import name_parts
from lab.editing import (
    KeepMemberFormSet,
    LabModelAdmin,
    MemberRowsInline,
    MemberWorkInline,
    YearFilter,
    member_filter,
    member_person,
)
from people.admin import ProjectAdmin
from people.models import Person
from publications import importing
from publications.authors import LIST, author_list
from publications.importing import ImportProblem, batches, files
from publications.models import (
    Authorship,
    ImportBatch,
    ProjectPublication,
    Publication,
    Venue,
)


class AuthorshipForm(forms.ModelForm):
    class Meta:
        model = Authorship
        fields = [
            "position",
            "given_name",
            "family_name",
            "suffix",
            "person",
            "is_equal_contribution",
            "is_corresponding",
            "affiliation",
            "orcid",
            "is_unlisted",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["position"].required = False
        self.fields["position"].help_text = "Leave empty to add at the end."
        self.fields["position"].widget.attrs["placeholder"] = "next"


class AuthorshipFormSet(KeepMemberFormSet):
    """Keeps positions unique and gapless (1, 2, 3 …) in the order the admin gave them."""

    def clean(self):
        kept = [
            form
            for form in self.forms
            if form.cleaned_data
            and not self._should_delete_form(form)
            and (form.instance.pk or form.has_changed())
        ]
        given = [f.cleaned_data["position"] for f in kept if f.cleaned_data.get("position")]
        duplicates = sorted({p for p in given if given.count(p) > 1})
        if duplicates:
            raise forms.ValidationError(
                f"Two authors share position {', '.join(map(str, duplicates))}; "
                "give each author a different position."
            )
        super().clean()
        # Numbered rows in their order, then rows left blank in the order they were typed.
        ordered = sorted(
            kept, key=lambda f: f.cleaned_data.get("position") or len(self.forms) + 10**6
        )
        for number, form in enumerate(ordered, start=1):
            form.cleaned_data["position"] = form.instance.position = number
        self._kept = ordered

    @transaction.atomic
    def save(self, commit=True):
        if not commit or not self.instance.pk:
            return super().save(commit)
        # Park every stored row above the real positions, let Django save the edited rows
        # at their new positions, then put the untouched rows at theirs.
        self.instance.park_authorships()
        saved = super().save(commit)
        parked = set(
            self.instance.authorships.filter(position__gt=len(self._kept)).values_list(
                "pk", flat=True
            )
        )
        for form in self._kept:
            if form.instance.pk in parked:
                form.instance.save(update_fields=["position"])
        return saved


class AuthorshipInline(MemberRowsInline):
    model = Authorship
    form = AuthorshipForm
    formset = AuthorshipFormSet
    verbose_name, verbose_name_plural = _("author"), _("authors")
    extra = 1
    autocomplete_fields = ["person"]


class ProjectPublicationInline(MemberWorkInline):
    model = ProjectPublication
    work_field = "publication"
    credited_lookup = "authorships__person"


ProjectAdmin.inlines = [*ProjectAdmin.inlines, ProjectPublicationInline]


class ImportForm(forms.Form):
    dois = forms.CharField(
        label="DOIs",
        required=False,
        widget=forms.Textarea(attrs={"rows": 5, "cols": 60, "placeholder": "10.1145/3773772"}),
        help_text="One per line; doi.org links work too. Each is looked up on Crossref.",
    )
    file = KeptFileField(
        required=False,
        max_bytes=importing.MAX_FILE_BYTES,
        help_text="A BibTeX (.bib) file or a Crossref JSON (.json) record, up to 5 MB.",
    )
    bibtex = forms.CharField(
        label="BibTeX",
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "cols": 60, "placeholder": "@inproceedings{…}"}),
        help_text="Or paste BibTeX entries here, as copied from Google Scholar, DBLP or a "
        "publisher.",
    )
    orcid_person = forms.ModelChoiceField(
        label="ORCID works of",
        required=False,
        queryset=Person.objects.exclude(orcid=""),
        help_text="Import the public works listed on this member's ORCID record.",
    )

    def clean(self):
        data = super().clean()
        given = (data.get("dois", "").strip(), data.get("bibtex", "").strip(), data.get("file"))
        if not (any(given) or data.get("orcid_person")):
            raise forms.ValidationError(
                _("Paste DOIs or BibTeX, choose a file, or pick a member's ORCID.")
            )
        return data

    def start_batch(self, user, client):
        """The import's batch: a file is read at once (ImportProblem if it cannot be);
        DOIs and ORCID works are fetched in the background into it."""
        data = self.cleaned_data
        records = []
        if data.get("file"):  # at most 5 MB (the field's bound)
            upload = data["file"]
            try:
                records = files.read_file_text(upload.name, upload.read())
            except ImportProblem:
                self.fields["file"].widget.checked_upload = None  # the file itself is refused
                raise
        if data.get("bibtex", "").strip():
            pasted = data["bibtex"].encode()
            records += files.read_file_text("pasted BibTeX", pasted, kind="bib")
        dois = [line.strip() for line in data["dois"].splitlines() if line.strip()]
        if len(dois) > batches.MAX_DOIS:
            raise ImportProblem(
                f"That is {len(dois)} DOIs; one import looks up at most {batches.MAX_DOIS}. "
                "Split the list, or upload a BibTeX file."
            )
        person = data.get("orcid_person")
        fetching = bool(dois or person)
        batch = ImportBatch.objects.create(
            user=user,
            records=[r.to_json() for r in records],
            status=ImportBatch.Status.FETCHING if fetching else ImportBatch.Status.READY,
            done=len(records),
            total=len(records) + len(dois),
        )
        if fetching:
            batches.start(batches.fetch, batch.pk, dois, person.pk if person else None, client)
        return batch


@admin.register(Publication)
class PublicationAdmin(LabModelAdmin):
    owner_lookup = "authorships__person"
    # The authors go under the title, as in a reference list: a column of their own left the
    # titles one word per line at 1,280 px.
    list_display = ["title_and_authors", "venue", "date", "kind", "status", "is_selected"]
    list_display_links = None  # the title links itself
    list_filter = [
        YearFilter,
        "kind",
        "status",
        "venue",
        member_filter("authorships"),
        "is_selected",
    ]
    list_select_related = ["venue"]
    search_fields = [
        "title",
        "doi",
        "arxiv_id",
        "patent_number",
        "authorships__family_name",
        "authorships__given_name",
        "venue__short_name",
    ]
    autocomplete_fields = ["venue", "featured_image", "tags"]
    inlines = [AuthorshipInline]
    readonly_fields = ["created", "updated"]
    fieldsets = [
        (None, {"fields": ["title", ("kind", "status"), ("venue", "date"), "slug"]}),
        (
            _("Where it appeared"),
            {
                "fields": [
                    "container_title",
                    ("volume", "issue", "pages"),
                    ("publisher", "series"),
                    ("address", "issn"),
                ]
            },
        ),
        (_("Identifiers"), {"fields": [("doi", "arxiv_id"), "bibtex_key"]}),
        (
            _("Links"),
            {
                "fields": [
                    ("pdf_file", "pdf_url"),
                    "url",
                    ("code_url", "slides_url"),
                    ("video_url", "project_url"),
                    ("poster_url", "supplement_url"),
                    ("blog_url", "dataset_url"),
                    ("other_url", "other_label"),
                ]
            },
        ),
        (
            _("About it"),
            {
                "fields": [
                    "abstract",
                    ("award", "note"),
                    ("featured_image", "tags"),
                    ("is_selected", "is_published"),
                ]
            },
        ),
        (
            _("Citations"),
            {"fields": [("citation_count", "citations_read_on", "citations_source")]},
        ),
        (
            _("Patent"),
            {"fields": [("patent_jurisdiction", "patent_number")], "classes": ["collapse"]},
        ),
        (
            _("Record"),
            {"fields": ["source_fields", ("created", "updated")], "classes": ["collapse"]},
        ),
    ]

    change_list_template = "admin/publications/publication/change_list.html"
    object_history_template = "admin/publications/publication/object_history.html"
    http_client = importing.HttpClient()

    def get_queryset(self, request):
        rows = Authorship.objects.select_related("person")
        return super().get_queryset(request).prefetch_related(Prefetch("authorships", rows))

    def history_view(self, request, object_id, extra_context=None):
        """The paper's history, and under it every change to its author list."""
        if not is_id(self.model._meta.pk, unquote(object_id)):  # as a deleted row's
            return super().history_view(request, object_id, extra_context)
        records = Authorship.history.filter(publication_id=object_id).select_related("history_user")
        context = {"author_changes": _author_changes(records.order_by("history_id"))}
        return super().history_view(request, object_id, {**context, **(extra_context or {})})

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("import/", wrap(self.import_view), name="publications_publication_import"),
            path(
                "import/<uuid:batch_id>/",
                wrap(self.import_batch_view),
                name="publications_publication_import_batch",
            ),
            *super().get_urls(),
        ]

    def import_view(self, request):
        """Paste DOIs, upload a file or pick an ORCID → the import's own page, which shows
        the fetch's progress, then a preview of every record, then takes the confirmation.
        Nothing is written before confirm; what is written is what the preview showed."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        is_post = request.method == "POST"
        form = ImportForm(request.POST, request.FILES) if is_post else ImportForm()
        if self.is_member_editor(request):
            # A member imports their own ORCID works, not a colleague's.
            own = member_person(request.user)
            form.fields["orcid_person"].queryset = Person.objects.filter(
                pk=own.pk if own else None
            ).exclude(orcid="")
        if is_post and form.is_valid():
            try:
                batch = form.start_batch(request.user, self.http_client)
            except ImportProblem as problem:
                form.add_error(None, str(problem))
            else:
                return redirect("admin:publications_publication_import_batch", batch.pk)
        return self._import_page(request, form=form)

    def import_batch_view(self, request, batch_id):
        """One import: its progress while fetching, its preview, its confirmation."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        batch = ImportBatch.live().filter(pk=batch_id, user=request.user).first()
        if batch is None or batch.status == ImportBatch.Status.DONE:
            messages.error(request, _("That import preview has expired; start again."))
            return redirect("admin:publications_publication_import")
        if batch.status != ImportBatch.Status.READY:
            return self._import_page(request, batch=batch)
        records = [importing.Record.from_json(data) for data in batch.records]
        for key, value in request.POST.items():  # a field the source gave twice: the pick
            if match := re.match(r"^choice-(\d+)-(\d+)$", key):
                record_number, choice = int(match[1]), int(match[2])
                if record_number < len(records) and value.isdigit():
                    record = records[record_number]
                    if choice < len(record.choices):
                        options = record.choices[choice]["options"]
                        if int(value) < len(options):
                            record.choose(choice, int(value))
        take = {int(k.split("-")[1]) for k in request.POST if re.match(r"^take-\d+$", k)}
        plans = importing.plan(records, editable=self._importable(request), take_source=take)
        if request.method != "POST":
            return self._import_page(request, batch=batch, plans=plans)
        for number, plan in enumerate(plans):
            for index, author in enumerate(plan.record.authors):
                choice = request.POST.get(f"author-{number}-{index}")
                if author.candidates and choice:
                    author.person = next(
                        (p for p in author.candidates if str(p.pk) == choice), None
                    )
        summary = importing.apply(
            plans, skip_invalid=bool(request.POST.get("skip_invalid")), user=request.user
        )
        if not summary.written:
            messages.error(
                request,
                f"Nothing was imported: {summary.failed} record(s) have problems. Tick "
                "“import the valid records” to import the rest.",
            )
            return self._import_page(request, batch=batch, plans=plans)
        batch.status = ImportBatch.Status.DONE
        batch.save(update_fields=["status"])
        messages.success(request, f"Import done: {summary}.")
        return redirect(reverse("admin:publications_publication_changelist"))

    def _importable(self, request):
        """The papers an import by this user may update: all for lab admins, else the ones
        the member may edit here (those they author)."""
        return None if not self.is_member_editor(request) else self.get_queryset(request)

    def _import_page(self, request, form=None, batch=None, plans=None):
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Import publications"),
            "form": form,
            "batch": batch,
            "plans": plans,
            "has_errors": any(p.action == importing.ERROR for p in plans or []),
        }
        return TemplateResponse(request, "admin/publications/publication/import.html", context)

    def keep_member_linked(self, publication, person):
        if not publication.authorships.filter(person=person).exists():
            given, family, suffix = name_parts(person.name)
            last = publication.authorships.order_by("-position").first()
            publication.authorships.create(
                position=(last.position + 1) if last else 1,
                given_name=given,
                family_name=family,
                suffix=suffix,
                person=person,
            )

    @admin.display(description=_("publication"), ordering="title")
    def title_and_authors(self, publication):
        """The title, linked to its change page, and the authors as the lab's lists print
        them (the one renderer), shortened by its settings."""
        return format_html(
            '<a href="{}">{}</a><br><span class="list-authors">{}</span>',
            reverse("admin:publications_publication_change", args=[publication.pk]),
            publication.display_title,
            author_list(publication, LIST).plain(),
        )


AUTHOR_FIELDS = {
    "position": "position",
    "given_name": "given name",
    "family_name": "family name",
    "person": "lab member",
    "is_equal_contribution": "co-first",
    "is_corresponding": "corresponding",
    "orcid": "ORCID",
    "affiliation": "affiliation",
    "is_unlisted": "unlisted authors",
}


def _author_changes(records):
    """Author-list history, newest first: who added, changed or removed which author, and
    for a change, each field's old and new value (two queries in all)."""
    records = list(records)
    people = dict(
        Person.objects.filter(pk__in={r.person_id for r in records if r.person_id}).values_list(
            "pk", "name"
        )
    )

    def shown(field, value):
        return people.get(value, value) if field == "person" else value

    changes, previous = [], {}
    for record in records:
        before = previous.get(record.id)
        fields = []
        if record.history_type == "~" and before is not None:
            for field, label in AUTHOR_FIELDS.items():
                old = getattr(before, f"{field}_id" if field == "person" else field)
                new = getattr(record, f"{field}_id" if field == "person" else field)
                if old != new:
                    fields.append((label, shown(field, old), shown(field, new)))
        name = "…" if record.is_unlisted else f"{record.given_name} {record.family_name}".strip()
        changes.append(
            {
                "record": record,
                "name": name,
                "fields": fields,
                "action": record.get_history_type_display(),
            }
        )
        previous[record.id] = record
    return changes[::-1]


@admin.register(Venue)
class VenueAdmin(LabModelAdmin):
    list_display = ["short_name", "name", "kind", "publisher", "paper_count"]
    list_filter = ["kind"]
    search_fields = ["short_name", "name", "issn", "aliases", "dblp_key"]
    fields = [
        ("short_name", "kind"),
        "name",
        "aliases",
        ("issn", "dblp_key"),
        ("publisher", "url"),
    ]
    actions = ["merge_venues"]

    ordering = ["short_name"]  # stated: a grouped query drops Meta.ordering (autocomplete)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(paper_count=Count("publications"))

    @admin.display(description=_("papers"), ordering="paper_count")
    def paper_count(self, venue):
        return venue.paper_count

    @admin.action(description=_("Merge selected venues into one…"), permissions=["delete"])
    def merge_venues(self, request, queryset):
        """Two or more venues that are one (an import's new venue and the lab's): pick the
        one to keep; the others' papers move to it and their names become its aliases."""
        venues = list(queryset.order_by("-paper_count", "short_name"))
        if len(venues) < 2:
            self.message_user(request, "Select at least two venues to merge.", messages.WARNING)
            return None
        chosen = request.POST.get("keep")
        if "merge" in request.POST and chosen:
            keep = next((v for v in venues if str(v.pk) == chosen), None)
            if keep is not None:
                others = [v for v in venues if v.pk != keep.pk]
                moved = sum(v.paper_count for v in others)
                keep.absorb(others)
                self.message_user(
                    request,
                    f"Merged {len(others)} venue(s) into “{keep}”; {moved} paper(s) moved.",
                    messages.SUCCESS,
                )
                return None
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Merge venues"),
            "venues": venues,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/publications/venue/merge.html", context)
