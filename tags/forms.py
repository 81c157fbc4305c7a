"""The "Tag" choice of a public list's filter (papers, posts): the tags its shown items
carry, chosen by slug (?tag=…)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tags.models import Tag


class TagFilterField(forms.ModelChoiceField):
    def __init__(self, **kwargs):
        super().__init__(
            queryset=Tag.objects.none(),
            required=False,
            to_field_name="slug",
            label=_("Tag"),
            empty_label=_("Any tag"),
            **kwargs,
        )

    def carried_by(self, relation, shown):
        """Offer the tags that the rows `shown` (a queryset of pks) carry, through the tagged
        model's `relation` (e.g. "posts")."""
        self.queryset = Tag.objects.filter(**{f"{relation}__in": shown}).distinct()
