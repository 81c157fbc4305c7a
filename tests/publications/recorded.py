"""Recorded HTTP responses for the importers: a stand-in for importing.HttpClient."""

import json
from pathlib import Path

from publications.importing import CROSSREF_WORKS, ImportProblem

DATA = Path(__file__).parent / "data"
TOS_DOI = "10.1145/3773772"


def tos_record():
    return json.loads((DATA / "crossref-mooncake-tos.json").read_text())


class RecordedClient:
    """Answers from a dict of URL → JSON (or an exception to raise); anything else is a 404."""

    def __init__(self, responses=None):
        self.responses = {CROSSREF_WORKS + TOS_DOI: tos_record(), **(responses or {})}
        self.requested = []

    def get_json(self, url, headers=None):
        self.requested.append(url)
        answer = self.responses.get(url)
        if isinstance(answer, Exception):
            raise answer
        if answer is None:
            raise ImportProblem(f"{url} answered 404 Not Found")
        return answer
