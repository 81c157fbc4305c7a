from django.apps import AppConfig


class TalksConfig(AppConfig):
    name = "talks"
    verbose_name = "Talks and awards"
