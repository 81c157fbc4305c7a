"""Feeds beyond what Django writes: RSS whose items carry their date at its own precision
(Dublin Core's `dc:date`: "2024", "2024-06", "2024-06-15"), where RSS's pubDate can only state a
whole day; Atom whose entries carry their whole text."""

from django.utils.feedgenerator import Atom1Feed, Rss201rev2Feed


class PartialDateFeed(Rss201rev2Feed):
    """An RSS 2.0 feed in which an item's `partial_date` (a `core.partial_dates` value, from
    the Feed's `item_extra_kwargs`) is written as `dc:date`."""

    def rss_attributes(self):
        return {**super().rss_attributes(), "xmlns:dc": "http://purl.org/dc/elements/1.1/"}

    def add_item_elements(self, handler, item):
        super().add_item_elements(handler, item)
        if item.get("partial_date"):
            handler.addQuickElement("dc:date", item["partial_date"].isoformat())


class AtomWithContent(Atom1Feed):
    """An Atom feed whose entries carry their whole text as HTML `content` (an item's
    `content`, from the Feed's `item_extra_kwargs`) beside the short `summary`: Django's
    own Atom feed writes only the summary."""

    def add_item_elements(self, handler, item):
        super().add_item_elements(handler, item)
        if item.get("content"):
            handler.addQuickElement("content", item["content"], {"type": "html"})
