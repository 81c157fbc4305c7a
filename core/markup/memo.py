"""The memo of rendered texts: a page shows the same texts visit after visit without
converting them again, and a process holds no more of them than its bound."""

import threading
from collections import OrderedDict

from core.markup.writer import Rendered


class Memo:
    """Rendered texts by (text, variant, language), least recently used dropped first once
    the texts held pass `limit` characters."""

    def __init__(self, limit: int):
        self.limit = limit
        self.held = 0
        self.entries: OrderedDict[tuple, Rendered] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple) -> Rendered | None:
        with self.lock:
            found = self.entries.get(key)
            if found is not None:
                self.entries.move_to_end(key)
            return found

    def put(self, key: tuple, value: Rendered) -> None:
        size = len(key[0])
        if size > self.limit:
            return
        with self.lock:
            if key in self.entries:
                return
            self.entries[key] = value
            self.held += size
            while self.held > self.limit:
                old, _value = self.entries.popitem(last=False)
                self.held -= len(old[0])

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.held = 0
