"""The lab's teaching: /teaching/ (every course, by year) and /teaching/<slug>/ (a course)."""

from django.urls import path

from website import views

app_name = "teaching"
urlpatterns = [
    path("", views.CourseListView.as_view(), name="list"),
    path("<slug:slug>/", views.CourseView.as_view(), name="detail"),
]
