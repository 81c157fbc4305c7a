from django.urls import path

from labsite.pages import cv
from labsite.pages import people as views
from publications.views import export_person

app_name = "people"
urlpatterns = [
    path("", views.TeamView.as_view(), name="team"),
    path("<slug:slug>/", views.ProfileView.as_view(), name="detail"),
    path("<slug:slug>/cv/", cv.CVView.as_view(), name="cv"),
    path("<slug:slug>/cv.pdf", cv.cv_pdf, name="cv-pdf"),
    path("<slug:slug>/publications.<str:fmt>", export_person, name="publications-export"),
]
