"""Root URLs: the public URL scheme documented in README."""

from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.conf.urls.static import static
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, reverse_lazy
from django.views.generic import RedirectView
from django.views.i18n import set_language

from lab import sections
from labsite import sitemaps, views
from labsite.pages import home, search
from labsite.site_import.views import import_site_page

# The public pages in English at these paths, in Chinese under /zh-hans/ (labsite/i18n.py).
urlpatterns = i18n_patterns(
    path("", home.HomeView.as_view(), name="home"),
    path("search/", search.SearchView.as_view(), name="search"),
    # each public section's addresses, as the registry (lab/sections.py) places them
    *[path(s.prefix, include(s.urls)) for s in sections.SECTIONS if s.urls],
    prefix_default_language=False,
)
urlpatterns += [
    path("admin/import-site/", admin.site.admin_view(import_site_page), name="import_site"),
    path("admin/", admin.site.urls),
    # The language menu of the admin posts here (it sets the language cookie).
    path("i18n/setlang/", set_language, name="set_language"),
    # Invited members choose their password here (the admin's Invite by email).
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            # An invited member is signed in once the password is chosen, and lands on
            # their own profile's edit page.
            post_reset_login=True,
            post_reset_login_backend="django.contrib.auth.backends.ModelBackend",
            success_url=reverse_lazy("my_profile"),
        ),
        name="password_reset_confirm",
    ),
    path("accounts/my-profile/", views.my_profile, name="my_profile"),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("robots.txt", views.robots_txt, name="robots"),
    path("favicon.svg", views.favicon, name="favicon"),
    path("favicon.ico", RedirectView.as_view(pattern_name="favicon", permanent=True)),
    path("colours/<slug:version>.css", views.site_colours, name="site-colours"),
    path("health/", views.health, name="health"),
    path("sitemap.xml", sitemaps.index, name="sitemap"),
    path("sitemap-<slug:section>.xml", sitemaps.sitemap, name="sitemap-section"),
]

# A part of the stack that does not answer gets the outage page (503), not a bare 500.
handler500 = "labsite.outages.server_error"

if settings.DEBUG:
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)

# The lab's own pages (/join-us/, /research/projects/) last: at any address nothing above
# answers (a page's address is checked against these when it is saved).
urlpatterns += i18n_patterns(path("", include("website.urls")), prefix_default_language=False)
