from django.urls import path

from talks import views

app_name = "talks"
urlpatterns = [
    path("talks/", views.TalkListView.as_view(), name="list"),
    path("talks/<slug:slug>/", views.TalkDetailView.as_view(), name="detail"),
    path("awards/", views.AwardListView.as_view(), name="awards"),
]
