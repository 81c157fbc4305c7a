"""The media storage: where uploads are kept, on a local disk or on object storage."""

import os
from pathlib import Path

from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, Storage


class LocalStorage(FileSystemStorage):
    """Django's folder storage, except that a file it fails to write (the disk full, a
    quota reached) is removed rather than left behind empty or cut short."""

    def _save(self, name, content):
        path = Path(self.path(name))
        existed = path.exists()
        try:
            return super()._save(name, content)  # type: ignore[misc]  # private: not in the stubs
        except BaseException:
            if not existed:  # Django creates the file before writing: it is this save's
                path.unlink(missing_ok=True)
            raise


def local_folder(storage: Storage) -> Path | None:
    """The folder `storage` keeps its files in, or None when they are not on this machine
    (object storage)."""
    return Path(storage.location) if isinstance(storage, FileSystemStorage) else None


def move(storage: Storage, source: str, target: str) -> None:
    """Move the stored file `source` to the name `target`, replacing what is there: a
    rename in a local folder (it cannot run out of room half-way), a copy then a delete on
    object storage."""
    folder = local_folder(storage)
    if folder is not None:
        final = Path(storage.path(target))
        final.parent.mkdir(parents=True, exist_ok=True)
        os.replace(storage.path(source), final)
        return
    with storage.open(source, "rb") as file:
        data = file.read()
    if storage.exists(target):
        storage.delete(target)
    if storage.save(target, ContentFile(data)) != target:
        raise OSError(f"The file “{target}” could not be stored under its own name.")
    storage.delete(source)
