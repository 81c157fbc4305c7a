"""What counts as content, declared once and read by everything that treats content alike:
backups, page-cache invalidation, the model texts translated for the admin, and the
permissions of the two editing roles.

An app that holds content says so on its AppConfig, with its exceptions:

    class PublicationsConfig(AppConfig):
        holds_content = True
        transient_models = ("importbatch",)  # kept for a day, not content
        member_permissions = {"publication": ALL, "venue": ("add", "view")}

Every model of such an app is then *content* (it is backed up; lab admins may do everything
with it; members what `member_permissions` says), its django-simple-history twin *history*
(backed up with the history), and each model named in `transient_models` *transient* (kept
for the site's own work, never backed up; an app that holds no content may name its own
models so too). Models of other apps (accounts, sessions, the admin's log) are no content.

Content is *shown on pages* (changing it changes what visitors read, so what follows a
change, core/changes.py, follows it) but for what its app names as kept for the lab alone,
on no page, in backups all the same:

    class HarvestConfig(AppConfig):
        unshown_models = ("candidate",)  # works waiting for review: the admin's alone
    class PeopleConfig(AppConfig):
        unshown_fields = {"person": ("invited",)}  # a save of these alone shows nothing new

(a model's many-to-many links are shown as the model is).
"""

from pathlib import Path
from typing import Any

from django.apps import AppConfig
from django.apps import apps as global_apps
from django.conf import settings
from django.db.models import Model

CONTENT, HISTORY, TRANSIENT = "content", "history", "transient"
ALL = ("add", "change", "delete", "view")


def project_apps() -> list[AppConfig]:
    """This project's own apps (not Django's, nor installed packages'), in INSTALLED_APPS
    order: the layers, bottom up."""
    root = Path(settings.BASE_DIR).resolve()
    return [
        config
        for config in global_apps.get_app_configs()
        if Path(config.path).resolve().is_relative_to(root) and "site-packages" not in config.path
    ]


def content_apps(apps: Any = global_apps) -> list[AppConfig]:
    """The apps that hold content, in INSTALLED_APPS order."""
    return [
        config
        for config in global_apps.get_app_configs()
        if getattr(config, "holds_content", False)
        and (apps is global_apps or config.label in apps.app_configs)
    ]


def kind(model: type[Model]) -> str | None:
    """CONTENT, HISTORY or TRANSIENT for a model of an app that holds content, else None."""
    config = global_apps.app_configs.get(model._meta.app_label)  # none for the migrations'
    if model._meta.model_name in getattr(config, "transient_models", ()):
        return TRANSIENT
    if not getattr(config, "holds_content", False):
        return None
    if hasattr(model, "instance_type"):  # django-simple-history's history rows
        return HISTORY
    return CONTENT


def is_content(model: type[Model]) -> bool:
    return kind(model) == CONTENT


def shown_on_pages(model: type[Model], fields: Any = None) -> bool:
    """Whether a change of `model`'s rows (of these fields alone, when given: a save's
    `update_fields`) can change what a page shows: content, but not what its app declares
    unshown."""
    if not is_content(model):
        return False
    declaring = model._meta.auto_created  # a many-to-many table's: the model declaring it
    owner: type[Model] = declaring if isinstance(declaring, type) else model
    config = global_apps.app_configs[owner._meta.app_label]
    name = owner._meta.model_name
    if name in getattr(config, "unshown_models", ()):
        return False
    unshown = getattr(config, "unshown_fields", {}).get(name, ())
    return not (fields and unshown and set(fields) <= set(unshown))


def models_of(kinds: tuple[str, ...] = (CONTENT,), apps: Any = global_apps) -> list[type[Model]]:
    """The models of these kinds, app by app in INSTALLED_APPS order (the order backups are
    restored in), each app's models in their own order. `apps` may be a migration's state."""
    chosen = []
    for config in content_apps(apps):
        for model in apps.get_app_config(config.label).get_models():
            if kind(global_apps.get_model(model._meta.label)) in kinds:
                chosen.append(model)
    return chosen


def member_permissions() -> dict[str, dict[str, tuple[str, ...]]]:
    """{app label: {model name: actions}} a lab member holds, as the apps declare them."""
    return {
        config.label: dict(getattr(config, "member_permissions", {})) for config in content_apps()
    }
