"""A visitor cannot deny a member's CV PDF nor fill the disk with variants: 30 requests
with different `since` years filled the queue, the member's own PDF was then not queued
(its "queued" mark was set before the limit refused it, and held for ten minutes), and
every variant was kept (about 300 KB each, 144,000 possible per member)."""

import pytest
from django.core.cache import cache
from django.core.files.storage import default_storage

from labsite.pages import cv
from tests import factories

pytestmark = pytest.mark.django_db


class _Queue:
    """The task queue as the worker takes it: highest priority first, then in order."""

    def __init__(self, task, priority=0, waiting=None):
        self.task, self.module_path, self.priority = task, task.module_path, priority
        self.waiting = [] if waiting is None else waiting

    def using(self, priority=0, **kwargs):
        return _Queue(self.task, priority, self.waiting)

    def enqueue(self, **kwargs):
        self.waiting.append((-self.priority, len(self.waiting), kwargs))

    def run(self):
        made = []
        while self.waiting:
            self.waiting.sort(key=lambda item: item[:2])
            made.append(self.task.call(**self.waiting.pop(0)[2]))
        return made


class _Waiting:
    def __init__(self, queue):
        self.queue = queue

    def filter(self, **kwargs):
        return self

    def count(self):
        return len(self.queue.waiting)


def _varied(n):
    """n different queries a visitor may send, every one a canonical one (no redirect)."""
    for i in range(n):
        options = ["selected=1"] if i % 2 else []
        options += [f"since={1950 + i // 4}"]
        options += ["authors=short"] if i % 4 >= 2 else []
        yield "&".join(options)


def test_a_hundred_pdf_requests_keep_a_few_variants_and_the_members_pdf_goes_first(
    client, person, monkeypatch
):
    queue = _Queue(cv.build_pdf)
    monkeypatch.setattr(cv, "build_pdf", queue)
    monkeypatch.setattr(cv.DBTaskResult.objects, "ready", lambda: _Waiting(queue))
    monkeypatch.setattr(cv, "PDF_QUEUE_LIMIT", 5)
    if default_storage.exists("cv/teng-ma"):
        for left in default_storage.listdir("cv/teng-ma")[1]:
            default_storage.delete(f"cv/teng-ma/{left}")
    cache.clear()
    factories.authored(person, ["T Ma"], at=1, title="Pooled Memory at Scale")

    answers = []
    for i, query in enumerate(_varied(99)):
        if i == 50:  # the member's own PDF, asked once the queue is full
            answers.append(client.get("/people/teng-ma/cv.pdf"))
        answers.append(client.get(f"/people/teng-ma/cv.pdf?{query}"))

    assert len(answers) == 100
    assert {a.status_code for a in answers} == {503}
    page = answers[0].content.decode()  # a page a person reads, not bare text
    assert answers[0]["Content-Type"].startswith("text/html")
    assert '<a href="http://testserver/people/teng-ma/cv/">' in page
    assert len(queue.waiting) == cv.PDF_QUEUE_LIMIT + 1  # the member's PDF beyond the limit
    made = queue.run()
    assert made[0].startswith("cv/teng-ma/en-") and "-" in made[0]  # the default, first
    own = client.get("/people/teng-ma/cv.pdf")
    assert own.status_code == 200 and own.content.startswith(b"%PDF-")
    kept = default_storage.listdir("cv/teng-ma")[1]
    assert len(kept) <= cv.PDF_VARIANTS_KEPT + 1
    assert made[0].rsplit("/", 1)[1] in kept

    # while the PDF of a change is made, the page links the one made before
    paper = person.authorships.get().publication
    paper.title = "Pooled Memory at Scale, revised"
    paper.save()
    waiting = client.get("/people/teng-ma/cv.pdf")
    assert waiting.status_code == 503
    assert default_storage.url(made[0]) in waiting.content.decode()
    queue.waiting.clear()

    # a variant the flood's limit refused was not marked "queued": asked again, it queues
    refused = list(_varied(99))[-1]
    client.get(f"/people/teng-ma/cv.pdf?{refused}")
    assert len(queue.waiting) == 1
