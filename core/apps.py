from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Building blocks every app uses (partial dates, identifiers, images, documents, links,
    Markdown, slugs, initials, what counts as content, history restore, template filters);
    imports no app."""

    name = "core"
    verbose_name = "Building blocks"
