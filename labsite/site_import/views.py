"""The admin's page for bringing in a whole site: upload a ZIP of it, read the preview,
confirm. Lab admins only (it writes people, papers, talks and news alike)."""

import secrets

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.core.files import File
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _

from core.kept_uploads import KeptFileField
from core.private_storage import forget_old, local_path, private_storage
from lab.groups import is_lab_admin
from lab.models import MemberRole
from labsite.site_import.groups import GroupMapping
from labsite.site_import.site import SiteProblem
from labsite.site_import.writing import MAX_ZIP_BYTES, import_site, open_site

# Each previewed ZIP waits here, in the storage every worker sees, for its confirmation; one
# nobody confirmed goes a day on.
UPLOADS = "site-imports"
MAX_AGE = 24 * 3600
SESSION_KEY = "labsite-site-import"


class SiteUploadForm(forms.Form):
    site = KeptFileField(
        label=_("The site, as a ZIP file"),
        max_bytes=MAX_ZIP_BYTES,
        help_text=_(
            "A ZIP of the site's source folder (on GitHub: Code → Download ZIP), from "
            "al-folio or Hugo Blox."
        ),
    )
    name = forms.CharField(
        label=_("Owner's name"),
        required=False,
        max_length=200,
        help_text=_("Only needed when the site does not give it."),
    )


def import_site_page(request):
    """GET: the upload form. POST with a file: its preview (nothing written). POST with
    "confirm": the previewed upload, imported."""
    if not is_lab_admin(request.user):
        raise PermissionDenied
    stored = request.session.get(SESSION_KEY) or {}
    if request.method == "POST" and ("confirm" in request.POST or "regroup" in request.POST):
        name = _upload(stored.get("token", ""))
        if name is None or request.POST.get("token") != stored.get("token"):
            messages.error(request, _("That preview has expired; upload the site again."))
            return redirect("import_site")
        groups = _corrections(request.POST)
        if "regroup" in request.POST:
            report = _run(request, name, stored.get("name", ""), apply=False, groups=groups)
            return _page(request, report=report, token=stored.get("token"))
        report = _run(request, name, stored.get("name", ""), apply=True, groups=groups)
        if report is not None and report.written:
            private_storage().delete(name)
            del request.session[SESSION_KEY]
            messages.success(
                request,
                _("The site is imported: %(count)s rows new or updated.")
                % {"count": report.changes},
            )
            return redirect("admin:people_person_changelist")
        return _page(request, report=report, token=stored.get("token"))
    form = SiteUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        token = secrets.token_urlsafe(16)
        forget_old(UPLOADS, MAX_AGE)
        name = _keep(form.cleaned_data["site"], token)
        request.session[SESSION_KEY] = {"token": token, "name": form.cleaned_data["name"]}
        report = _run(request, name, form.cleaned_data["name"], apply=False)
        if report is not None:
            return _page(request, report=report, token=token)
        form.fields["site"].widget.checked_upload = None  # the ZIP itself was refused
    return _page(request, form=form)


def _keep(upload, token):
    """Stores the uploaded ZIP under `token` for the confirmation; returns its stored name."""
    upload.seek(0)
    # copied through a plain File: given the upload, a storage moves a large one's temporary
    # file away from under it, and the form may still keep it (core/kept_uploads.py)
    name = private_storage().save(f"{UPLOADS}/{token}.zip", File(upload.file))
    upload.seek(0)
    return name


def _upload(token):
    """The stored upload `token` names (a name this page made), or None."""
    if not token or not token.replace("-", "").replace("_", "").isalnum():
        return None
    name = f"{UPLOADS}/{token}.zip"
    return name if private_storage().exists(name) else None


def _corrections(data):
    """The group table as the admin left it: {group: GroupMapping}; a role that is no role
    (a tampered form) is not one."""
    corrections = {}
    for index in range(int(data.get("groups", 0) or 0)):
        group = data.get(f"group-{index}-name", "")
        role = data.get(f"group-{index}-role", "")
        if not group or role not in (*MemberRole.values, "", NOT_PEOPLE):
            continue
        corrections[group] = GroupMapping(
            role="" if role == NOT_PEOPLE else role,
            alumni=data.get(f"group-{index}-alumni") == "on",
            person=role != NOT_PEOPLE,
        )
    return corrections


NOT_PEOPLE = "-"


def _run(request, upload, name, *, apply, groups=None):
    """The report of importing the stored ZIP `upload` (nothing written unless `apply`),
    or None with the reason shown when the site cannot be read."""
    try:
        with local_path(upload) as path, open_site(path, name) as site:
            return import_site(site, apply=apply, user=request.user, groups=groups)
    except SiteProblem as problem:
        messages.error(request, f"{problem} {_('Nothing was imported.')}")
        return None
    except FileNotFoundError:  # a day old, deleted by another worker since it was looked for
        messages.error(request, _("That preview has expired; upload the site again."))
        return None


def _page(request, form=None, report=None, token=None):
    context = {
        **admin.site.each_context(request),
        "title": _("Bring in a whole site"),
        "form": form or (SiteUploadForm() if report is None else None),
        "report": report,
        "token": token,
        "roles": [*MemberRole.choices, (NOT_PEOPLE, _("Not people (leave out)"))],
        "not_people": NOT_PEOPLE,
    }
    return TemplateResponse(request, "admin/labsite/import_site.html", context)
