"""The lab's openings: /openings/ and /openings/<slug>/."""

from django.urls import path

from website import views

app_name = "openings"
urlpatterns = [
    path("", views.OpeningListView.as_view(), name="list"),
    path("<slug:slug>/", views.OpeningView.as_view(), name="detail"),
]
