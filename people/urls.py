from django.urls import path

from people import views

app_name = "people"
urlpatterns = [
    path("", views.TeamView.as_view(), name="team"),
    path("<slug:slug>/", views.ProfileView.as_view(), name="detail"),
]
