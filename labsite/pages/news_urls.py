"""The lab's news: /news/ (the lab's and its members' news) and /news/feed/ (its feed)."""

from django.urls import path

from labsite.pages import news

urlpatterns = [
    path("", news.NewsView.as_view(), name="news"),
    path("feed/", news.NewsFeed(), name="news-feed"),
]
