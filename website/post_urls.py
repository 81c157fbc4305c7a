"""The lab's posts: /posts/, /posts/feed/ and /posts/<slug>/."""

from django.urls import path

from website import views

app_name = "posts"
urlpatterns = [
    path("", views.PostListView.as_view(), name="list"),
    path("feed/", views.PostsFeed(), name="feed"),
    path("<slug:slug>/", views.PostView.as_view(), name="detail"),
]
