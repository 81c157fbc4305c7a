from django.apps import AppConfig


class PublicationsConfig(AppConfig):
    name = "publications"
