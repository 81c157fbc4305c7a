"""The tags' pages: /tags/ and /tags/<slug>/."""

from django.urls import path

from labsite.pages import tags as views

app_name = "tags"
urlpatterns = [
    path("", views.TagListView.as_view(), name="list"),
    path("<slug:slug>/", views.TagView.as_view(), name="detail"),
]
