from django.urls import path

from labsite.pages import people as views
from publications.views import export_person

app_name = "people"
urlpatterns = [
    path("", views.TeamView.as_view(), name="team"),
    path("<slug:slug>/", views.ProfileView.as_view(), name="detail"),
    path("<slug:slug>/publications.<str:fmt>", export_person, name="publications-export"),
]
