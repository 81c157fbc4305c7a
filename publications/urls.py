from django.urls import path

from publications import views

app_name = "publications"
urlpatterns = [
    path("", views.PublicationListView.as_view(), name="list"),
    path("feed/", views.LatestPublicationsFeed(), name="feed"),
    path("export.<str:fmt>", views.export_list, name="export"),
    path("<int:pk>/", views.publication_by_id, name="by-id"),
    path("<slug:slug>/", views.PublicationDetailView.as_view(), name="detail"),
    path("<slug:slug>/paper.pdf", views.pdf, name="pdf"),
    path("<slug:slug>/export.<str:fmt>", views.export_one, name="export-one"),
]
