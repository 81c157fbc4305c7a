"""The lab's research themes: /themes/ and /themes/<slug>/ (not /research/, which many labs
already give a page of their own)."""

from django.urls import path

from website import views

app_name = "themes"
urlpatterns = [
    path("", views.ThemeListView.as_view(), name="list"),
    path("<slug:slug>/", views.ThemeView.as_view(), name="detail"),
]
