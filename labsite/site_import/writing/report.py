"""What importing a site does (or did), row by row: what a preview shows and applying returns."""

from collections import Counter
from dataclasses import dataclass, field

from labsite.site_import.groups import GroupMapping
from labsite.site_import.site import Site

NEW, UNCHANGED, UPDATED = "new", "unchanged", "updated"


@dataclass
class Report:
    """What importing a site does (or did): per kind of row, how many are new, updated or
    unchanged, each row's line, what had no home, the template's leftovers, what could not
    be read (skipped, the rest comes in), what came in incomplete for an editor to complete
    (an image without its alt text), and the lab's groups as read."""

    site: Site
    counts: dict[str, Counter] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    to_complete: list[str] = field(default_factory=list)
    groups: dict[str, GroupMapping] = field(default_factory=dict)
    group_sizes: Counter = field(default_factory=Counter)
    written: bool = False

    def count(self, kind: str, action: str, label: str) -> None:
        self.counts.setdefault(kind, Counter())[action] += 1
        if action != UNCHANGED:
            self.lines.append(f"{kind}: {action}: {label}")

    @property
    def group_rows(self) -> list[tuple[str, GroupMapping, int]]:
        """The group table: each group of the site, how it is read, and how many it holds."""
        return [(g, m, self.group_sizes[g]) for g, m in self.groups.items()]

    @property
    def changes(self) -> int:
        return sum(c[NEW] + c[UPDATED] for c in self.counts.values())
