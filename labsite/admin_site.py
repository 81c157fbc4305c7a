"""The admin site: its index in the order a lab admin works, the site they build first, and
the page that takes the demo lab away."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path

from lab.groups import is_lab_admin

# Apps, and models within an app, in the order the index shows them: the site (its home,
# pages, menu, posts, openings, themes, teaching, then its name and look, then the images
# and galleries its pages show), the people and their work, the tags that label all of it,
# harvesting, then the accounts and the machinery. Anything not named follows, in Django's
# alphabetical order.
INDEX_ORDER = {
    "website": ["homesection", "page", "menuitem", "post", "opening", "theme", "course"],
    "lab": [],
    "media": ["mediaitem", "gallery"],
    "people": ["person", "project", "newsitem"],
    "publications": ["publication", "venue"],
    "talks": ["talk", "award"],
    "tags": ["tag"],
    "harvest": ["candidate", "harvestrun"],
    "auth": ["user", "group"],
    "axes": [],
    "django_tasks_database": [],
}


def _position(order, name):
    return order.index(name) if name in order else len(order)


class LabAdminSite(admin.AdminSite):
    def get_app_list(self, request, app_label=None):
        apps = super().get_app_list(request, app_label)
        apps.sort(key=lambda app: _position(list(INDEX_ORDER), app["app_label"]))
        for app in apps:
            order = INDEX_ORDER.get(app["app_label"], [])
            app["models"].sort(key=lambda m: _position(order, m["object_name"].lower()))
        return apps

    def get_urls(self):
        own = [path("remove-demo/", self.admin_view(self.remove_demo_view), name="remove_demo")]
        return own + super().get_urls()

    def index(self, request, extra_context=None):
        from labsite.models import DemoRow

        extra_context = {
            "has_demo": is_lab_admin(request.user) and DemoRow.objects.exists(),
            **(extra_context or {}),
        }
        return super().index(request, extra_context)

    def remove_demo_view(self, request):
        """GET: what removing the demo lab takes, counted, and what stays. POST: removed.
        Lab admins only."""
        from labsite import demo_rows

        if not is_lab_admin(request.user):
            raise PermissionDenied
        if request.method == "POST":
            plan = demo_rows.remove()
            if plan.counts:
                messages.success(request, f"The demo lab is removed: {plan.summary()}.")
            else:
                messages.info(request, "No demo rows were left: nothing was removed.")
            return redirect("admin:index")
        context = {
            **self.each_context(request),
            "title": "Remove the demo lab",
            "plan": demo_rows.removal_plan(),
        }
        return TemplateResponse(request, "admin/labsite/remove_demo.html", context)
