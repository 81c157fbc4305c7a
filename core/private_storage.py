"""The private storage of uploads kept between two requests (settings.STORAGES["uploads"]).

A refused form's checked files (core/kept_uploads.py) and a site's ZIP between its preview
and its import (labsite/site_import/views.py) are written by one request and read by a
later one, which another worker, maybe on another machine, may answer: so they go to a
storage every worker sees (a folder of the site's data, or the media bucket under a private
prefix), not to this machine's temporary folder; nothing there is ever served. A request
that reads one back may copy it to a temporary file of its own, gone before it answers.
"""

import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import IO

from django.core.files.storage import FileSystemStorage, Storage, storages


def private_storage() -> Storage:
    return storages["uploads"]


def forget_old(folder: str, max_age: float) -> None:
    """Deletes the files in `folder` stored more than `max_age` seconds ago: uploads
    nobody came back for. Another worker may be deleting the same ones."""
    storage = private_storage()
    try:
        _folders, files = storage.listdir(folder)
    except OSError:  # nothing stored there yet
        return
    for name in files:
        path = str(PurePosixPath(folder, name))
        try:
            if time.time() - storage.get_modified_time(path).timestamp() > max_age:
                storage.delete(path)
        except OSError:
            pass


def open_local(name: str) -> IO[bytes]:
    """The stored file `name`, opened for reading as a file of this machine (it has a
    `fileno`): the stored one itself when the storage is a local folder, else a copy in
    an unnamed temporary file, which goes when it is closed."""
    storage = private_storage()
    own = _own_path(storage, name)
    if own is not None:
        return own.open("rb")
    copy = tempfile.TemporaryFile()  # noqa: SIM115 (the caller closes it)
    with storage.open(name, "rb") as stored:
        shutil.copyfileobj(stored, copy)
    copy.seek(0)
    return copy


@contextmanager
def local_path(name: str) -> Iterator[Path]:
    """A path on this machine to the stored file `name`, for readers that want one: the
    stored file's own in a local folder, else a temporary copy of the same file name (a
    reader may name it), deleted on leaving. FileNotFoundError when nothing is stored as
    `name` (another worker may have deleted it)."""
    storage = private_storage()
    own = _own_path(storage, name)
    if own is not None:
        if not own.is_file():  # as a storage elsewhere says it
            raise FileNotFoundError(f"{name} is not stored")
        yield own
        return
    with tempfile.TemporaryDirectory(prefix="labsite-upload-") as folder:
        copy = Path(folder) / PurePosixPath(name).name
        with storage.open(name, "rb") as stored, copy.open("wb") as local:
            shutil.copyfileobj(stored, local)
        yield copy


def _own_path(storage: Storage, name: str) -> Path | None:
    """Where a storage keeping files in a folder of this machine keeps `name`; None for one
    that keeps them elsewhere (object storage, or memory in tests)."""
    return Path(storage.path(name)) if isinstance(storage, FileSystemStorage) else None
