"""Reviewing harvested work in the admin: members their own candidates, lab admins everyone's;
the harvest runs with their reports, and "Harvest now"."""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.widgets import AutocompleteSelect
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.id_fields import IdChoiceField
from harvest import review, tasks
from harvest.models import Candidate, HarvestRun, Provenance, Source
from harvest.runs import left_out_by_kind
from lab.editing import LabModelAdmin, ValidIdsMixin, member_person
from lab.groups import is_lab_admin
from publications.models import Publication


class ProvenanceInline(admin.TabularInline):
    model = Provenance
    fields = ["source", "source_id", "person", "found"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class MergeForm(forms.Form):
    publication = IdChoiceField(
        Publication.objects.all(),
        label=gettext_lazy("Merge into"),
        help_text=gettext_lazy("The lab's paper this work is; it takes only what it lacks."),
    )

    def __init__(self, *args, admin_site, papers, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["publication"].queryset = papers  # those the reviewer may change
        field = Candidate._meta.get_field("publication")
        widget = AutocompleteSelect(field, admin_site)
        widget.choices = self.fields["publication"].choices  # as the field's own widget has
        self.fields["publication"].widget = widget


class SourceFilter(admin.SimpleListFilter):
    title = gettext_lazy("found at")
    parameter_name = "source"

    def lookups(self, request, model_admin):
        return Source.choices

    def queryset(self, request, queryset):
        if self.value() in Source.values:
            return queryset.filter(provenances__source=self.value()).distinct()
        return queryset


@admin.register(Candidate)
class CandidateAdmin(LabModelAdmin):
    view_on_site = False
    owner_lookup = "people"
    list_display = ["title_and_year", "status", "found_at", "found_for", "other_version"]
    list_filter = ["status", SourceFilter, "people"]
    search_fields = ["title", "ids__value"]
    readonly_fields = [
        "title",
        "year",
        "status",
        "publication",
        "version_of",
        "version_of_candidate",
        "people",
        "not_people",
        "rejected_by",
        "reviewed",
        "reviewed_by",
    ]
    fields = readonly_fields
    inlines = [ProvenanceInline]
    actions = ["accept_selected", "reject_selected", "disown_selected"]

    def get_queryset(self, request):
        queryset = super().get_queryset(request).prefetch_related("provenances", "people")
        person = member_person(request.user)
        if self.is_member_editor(request) and person is not None:
            # What they rejected while others still decide is out of their sight, as what
            # they said is not theirs; once rejected for everyone it shows as such.
            queryset = queryset.exclude(not_people=person).exclude(
                rejected_by=person, status=Candidate.Status.OPEN
            )
        return queryset

    def has_add_permission(self, request):
        return False  # candidates come from harvests

    def has_delete_permission(self, request, obj=None):
        return False  # a rejection is remembered, never deleted

    @admin.display(description=gettext_lazy("work"), ordering="title")
    def title_and_year(self, candidate):
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:harvest_candidate_review", args=[candidate.pk]),
            candidate,
        )

    @admin.display(description=gettext_lazy("found at"))
    def found_at(self, candidate):
        names = dict(Source.choices)
        return ", ".join(sorted({names[p.source] for p in candidate.provenances.all()}))

    @admin.display(description=gettext_lazy("found for"))
    def found_for(self, candidate):
        return ", ".join(p.name for p in candidate.people.all())

    @admin.display(description=gettext_lazy("other version"))
    def other_version(self, candidate):
        if candidate.version_of_id:
            return format_html(
                '<a href="{}">{}</a>',
                reverse("admin:publications_publication_change", args=[candidate.version_of_id]),
                _("in the lab"),
            )
        if candidate.version_of_candidate_id:
            return format_html(
                '<a href="{}">{}</a>',
                reverse("admin:harvest_candidate_review", args=[candidate.version_of_candidate_id]),
                _("a candidate"),
            )
        return "—"

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("<int:pk>/review/", wrap(self.review_view), name="harvest_candidate_review"),
            path("<int:pk>/undo/", wrap(self.undo_view), name="harvest_candidate_undo"),
            *super().get_urls(),
        ]

    def undo_view(self, request, pk):
        """Undo the harvest's acceptance of a work (the link in the member's digest): a page
        saying what undoing does, and its one button, a POST. Only a member the work was
        found for, or a lab admin."""
        candidate = get_object_or_404(self.get_queryset(request), pk=pk)
        person = member_person(request.user)
        mine = person is not None and candidate.people.filter(pk=person.pk).exists()
        if not (is_lab_admin(request.user) or mine):
            raise PermissionDenied
        if request.method == "POST":
            try:
                review.undo_auto_accept(candidate, request.user)
            except review.ReviewProblem as problem:
                messages.error(request, str(problem))
            else:
                messages.success(
                    request, _("Undone: “%s” waits for your review again.") % candidate.title
                )
                return redirect("admin:harvest_candidate_review", candidate.pk)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Undo accepting “%s”") % candidate.title,
            "candidate": candidate,
            "source": dict(Source.choices).get(
                candidate.auto_accepted_from, candidate.auto_accepted_from
            ),
            "undoable": candidate.status == Candidate.Status.ACCEPTED
            and bool(candidate.auto_accepted_from),
        }
        return TemplateResponse(request, "admin/harvest/candidate/undo.html", context)

    def review_view(self, request, pk):
        """One candidate: where it was found, what accepting it would write (the import's
        preview), and the four decisions. Nothing is written before a button is pressed."""
        candidate = get_object_or_404(self.get_queryset(request), pk=pk)
        if not self.has_change_permission(request, candidate):
            raise PermissionDenied
        papers = self.admin_site.get_model_admin(Publication)
        editable = papers.get_queryset(request) if self.is_member_editor(request) else None
        form_options = {"admin_site": self.admin_site, "papers": papers.get_queryset(request)}
        merge_form = MergeForm(
            initial={"publication": candidate.other_version_paper_id()}, **form_options
        )
        merging = None
        if request.method == "POST":
            action = request.POST.get("action")
            try:
                if action == "accept":
                    publication = review.accept(
                        candidate,
                        request.user,
                        editable,
                        without_members=request.POST.get("without_members") == "yes",
                    )
                    messages.success(request, _accepted(candidate, publication))
                    return redirect("admin:harvest_candidate_changelist")
                if action in ("merge-preview", "merge"):
                    merge_form = MergeForm(request.POST, **form_options)
                    if merge_form.is_valid():
                        target = merge_form.cleaned_data["publication"]
                        if action == "merge":
                            review.merge(candidate, target, request.user)
                            messages.success(request, _("Merged into “%s”.") % target.display_title)
                            return redirect("admin:harvest_candidate_changelist")
                        merging = (target, review.merge_plan(candidate, target))
                if action == "reject":
                    self._reject(request, candidate)
                    return redirect("admin:harvest_candidate_changelist")
                if action == "disown":
                    person = self._disowner(request, candidate)
                    review.disown(candidate, person, request.user)
                    messages.success(
                        request,
                        _("Noted: it is not %s's, and will not be offered to them again.")
                        % person.name,
                    )
                    return redirect("admin:harvest_candidate_changelist")
            except review.ReviewProblem as problem:
                messages.error(request, str(problem))
        plan = (
            review.accept_plan(candidate, editable)
            if candidate.status == Candidate.Status.OPEN
            else None
        )
        missing = review.missing_members(candidate, plan) if plan is not None else []
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Review “%s”") % candidate.title,
            "candidate": candidate,
            "provenances": candidate.provenances.select_related("person"),
            "plan": plan,
            "missing": missing,
            "missing_note": review.without_them(candidate, missing) if missing else "",
            "merge_form": merge_form,
            "merging": merging,
            "media": self.media + merge_form.media,
            "claimants": candidate.claimants(),
            "is_open": candidate.status == Candidate.Status.OPEN,
            "may_add": papers.has_add_permission(request),
        }
        return TemplateResponse(request, "admin/harvest/candidate/review.html", context)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """A candidate's page is its review; a row the user may not see is as missing."""
        if str(object_id).isdigit() and self.get_queryset(request).filter(pk=object_id).exists():
            return redirect("admin:harvest_candidate_review", int(object_id))
        return super().change_view(request, object_id, form_url, extra_context)

    def _reject(self, request, candidate):
        """A lab admin's rejection is everyone's; a member's is their own: a work found for
        other members too stays open for them."""
        person = member_person(request.user) if self.is_member_editor(request) else None
        review.reject(candidate, request.user, person)
        candidate.refresh_from_db(fields=["status"])
        if candidate.status == Candidate.Status.REJECTED:
            message = _("Rejected: it will not be offered again, from any source.")
        else:
            message = _(
                "Rejected for you: it will not be offered to you again. It stays open for "
                "the others it was found for."
            )
        messages.success(request, message)

    def _disowner(self, request, candidate):
        """Whose "not me": the member's own; a lab admin's names the member in the form."""
        if self.is_member_editor(request):
            return member_person(request.user)
        person = candidate.people.filter(pk=request.POST.get("person") or None).first()
        if person is None:
            raise review.ReviewProblem(_("Say whose work it is not."))
        return person

    @admin.action(description=gettext_lazy("Accept the selected works"))
    def accept_selected(self, request, queryset):
        """Each as its review page's Accept does: a new paper, or joined to the lab's paper
        that is another version of it."""
        papers = self.admin_site.get_model_admin(Publication)
        if not papers.has_add_permission(request):
            raise PermissionDenied
        editable = papers.get_queryset(request) if self.is_member_editor(request) else None
        done = 0
        for candidate in queryset.filter(status=Candidate.Status.OPEN).order_by("pk"):
            try:
                review.accept(candidate, request.user, editable)
                done += 1
            except review.ReviewProblem as problem:
                self.message_user(request, f"{candidate.title}: {problem}", messages.ERROR)
        self.message_user(request, _("%d accepted.") % done)

    @admin.action(description=gettext_lazy("Reject the selected works (never offered again)"))
    def reject_selected(self, request, queryset):
        """As the review page's Reject: a member's for themselves only."""
        person = member_person(request.user) if self.is_member_editor(request) else None
        done = 0
        for candidate in queryset.filter(status=Candidate.Status.OPEN):
            review.reject(candidate, request.user, person)
            done += 1
        self.message_user(request, _("%d rejected.") % done)

    @admin.action(description=gettext_lazy("Not mine: a wrong author match"))
    def disown_selected(self, request, queryset):
        person = member_person(request.user)
        if person is None:
            self.message_user(
                request,
                _(
                    "Only a member can say a work is not theirs here; open a work to say it "
                    "for a member."
                ),
                messages.ERROR,
            )
            return
        for candidate in queryset:
            review.disown(candidate, person, request.user)
        self.message_user(request, _("Noted for %d work(s).") % queryset.count())


@admin.register(HarvestRun)
class HarvestRunAdmin(ValidIdsMixin, admin.ModelAdmin):
    view_on_site = False
    list_display = ["__str__", "status", "trigger", "person", "summary", "finished"]
    list_filter = ["status", "trigger"]
    readonly_fields = [
        "queued",
        "started",
        "finished",
        "status",
        "trigger",
        "person",
        "sources",
        "dry_run",
        "report_table",
        "message",
    ]
    fields = readonly_fields
    change_list_template = "admin/harvest/harvestrun/change_list.html"

    def has_module_permission(self, request):
        return is_lab_admin(request.user)

    def has_view_permission(self, request, obj=None):
        return is_lab_admin(request.user)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # a run's report is the record of what it did

    @admin.display(description=gettext_lazy("per source"))
    def summary(self, run):
        return "; ".join(
            f"{dict(Source.choices)[name]} {row['fetched']}/{row['new']}/{row['matched']}"
            + (f" ({len(row['errors'])} errors)" if row["errors"] else "")
            for name, row in run.report.items()
            if name in Source.values
        )

    @admin.display(description=gettext_lazy("report"))
    def report_table(self, run):
        names = dict(Source.choices)
        sources = [(name, row) for name, row in run.report.items() if name in Source.values]
        rows = format_html_join(
            "",
            "<tr><th scope='row'>{}</th><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
            "<td>{}</td></tr>",
            (
                (
                    names[name],
                    row["fetched"],
                    row["new"],
                    row["matched"],
                    _lines(f"{kind}: {n}" for kind, n in sorted(row.get("skipped", {}).items())),
                    _lines(row["errors"]),
                )
                for name, row in sources
            ),
        )
        head = format_html(
            "<tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>",
            _("source"),
            _("fetched"),
            _("new"),
            _("matched"),
            _("skipped (not papers)"),
            _("errors"),
        )
        work = run.report.get("candidates", {})
        citations = run.report.get("citations")
        stars = run.report.get("stars")
        parts = [format_html('<table class="import-table">{}{}</table>', head, rows)]
        if work:
            parts.append(
                format_html(
                    "<p>{}</p>{}{}{}",
                    _("Candidates created: %d.") % (work.get("created") or 0),
                    _left_out(work.get("left_out")),
                    _labelled(_("Filled in the lab's papers"), work.get("filled")),
                    _labelled(_("Problems"), work.get("problems")),
                )
            )
        if accepted := run.report.get("auto_accepted"):
            parts.append(
                format_html(
                    "<p>{}</p>",
                    _("Accepted without review, as the lab's settings let it: %s.")
                    % ", ".join(f"{names.get(name, name)} {n}" for name, n in accepted.items()),
                )
            )
        completion = run.report.get("completion")
        if completion:
            parts.append(
                format_html(
                    "<p>{}</p>{}",
                    _(
                        "Completed from Crossref by DOI: %(asked)s asked, %(completed)s "
                        "completed, %(missing)s not at Crossref, %(left)s left for the next run."
                    )
                    % {
                        "asked": completion.get("asked", 0),
                        "completed": completion.get("completed", 0),
                        "missing": completion.get("not at Crossref", 0),
                        "left": completion.get("left for the next run", 0),
                    },
                    _labelled(_("Errors"), completion.get("errors")),
                )
            )
        if citations:
            parts.append(
                format_html(
                    "<p>{}</p>{}",
                    _(
                        "Citation counts from OpenAlex: %(updated)s updated, %(kept)s typed by "
                        "hand and kept, %(missing)s not found."
                    )
                    % {
                        "updated": citations.get("updated", 0),
                        "kept": citations.get("kept", 0),
                        "missing": citations.get("not found", 0),
                    },
                    _labelled(_("Errors"), citations.get("errors")),
                )
            )
        if stars:
            parts.append(
                format_html(
                    "<p>{}</p>{}",
                    _("GitHub stars: %d projects refreshed.") % stars.get("refreshed", 0),
                    _labelled(_("Errors"), stars.get("errors")),
                )
            )
        return format_html_join("", "{}", ((part,) for part in parts))

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("now/", wrap(self.harvest_now), name="harvest_harvestrun_now"),
            *super().get_urls(),
        ]

    def harvest_now(self, request):
        """Queue a full harvest for the worker, the same work `manage.py harvest` does."""
        if request.method != "POST" or not is_lab_admin(request.user):
            raise PermissionDenied
        run = HarvestRun.objects.create(trigger=f"admin: {request.user.get_username()}")
        tasks.queue(run)
        messages.success(request, _("Harvest queued; its report appears here when it is done."))
        return redirect("admin:harvest_harvestrun_changelist")


def _accepted(candidate, publication):
    if candidate.status == Candidate.Status.MERGED:  # another version was in the lab
        return _("Accepted into “%s”: one paper, with what this version adds.") % (
            publication.display_title
        )
    return _("Accepted: “%s” is now one of the lab's papers.") % publication.display_title


def _lines(items):
    return format_html_join("", "<div>{}</div>", ((item,) for item in items or [])) or "—"


def _labelled(label, items):
    if not items:
        return ""
    return format_html(
        "<p>{}:</p><ul>{}</ul>", label, format_html_join("", "<li>{}</li>", ((i,) for i in items))
    )


def _left_out(counts):
    """The run's new works of kinds the lab does not harvest, as one sentence."""
    if not counts:
        return ""
    return format_html(
        "<p>{}</p>",
        _("Left out by the lab's settings (Lab settings → Harvest): %(works)s.")
        % {"works": left_out_by_kind(counts)},
    )
