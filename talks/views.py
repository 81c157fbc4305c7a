"""Public pages for talks and awards: lab-wide lists by year with filters, and talk pages."""

from django import forms
from django.conf.locale import LANG_INFO
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.views.generic import DetailView, ListView

from core import queries
from people.models import Person
from talks.models import Award, Talk


def language_name(code):
    """ "Chinese" for zh (Django knows only zh-hans and zh-hant), else Django's name, in the
    page's language."""
    if code == "zh":
        return _("Chinese")
    return translation.gettext(LANG_INFO.get(code, {}).get("name", code))


def _person_field():
    return forms.ModelChoiceField(
        required=False,
        queryset=Person.objects.published(),
        to_field_name="slug",
        label=_("Person"),
        empty_label=_("Anyone"),
    )


class _ListFilter(forms.Form):
    """Filters a dated list by person and kind; subclasses add their own fields to `exact`."""

    model = None
    exact = ("kind",)
    person = _person_field()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # asked again for each form: who is shown depends on the settings (PERSONAL_SITE)
        self.fields["person"].queryset = Person.objects.published()

    def apply(self, rows):
        self.is_valid()
        data = self.cleaned_data
        if data.get("person"):
            rows = rows.for_person(data["person"])
        return rows.filter(**{name: data[name] for name in self.exact if data.get(name)})


class TalkFilter(_ListFilter):
    model = Talk
    exact = ("kind", "language")
    kind = forms.ChoiceField(
        label=_("Kind"), required=False, choices=[("", _("Any kind")), *Talk.Kind.choices]
    )
    language = forms.ChoiceField(label=_("Language"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        codes = Talk.objects.published().order_by("language").values_list("language", flat=True)
        self.fields["language"].choices = [("", _("Any language"))] + [
            (code, language_name(code)) for code in codes.distinct()
        ]


class AwardFilter(_ListFilter):
    model = Award
    kind = forms.ChoiceField(
        label=_("Kind"), required=False, choices=[("", _("Any kind")), *Award.Kind.choices]
    )


class _FilteredListView(ListView):
    """A dated list narrowed by a filter form read from the query string."""

    filter_class = None
    paginate_by = 100

    def get_queryset(self):
        self.filter_form = self.filter_class(self.request.GET)
        model = self.filter_class.model
        return self.filter_form.apply(model.objects.published().for_listing())

    @classmethod
    def canonical_query(cls, params):  # what the page cache keys on
        return queries.encode(
            queries.paginated(queries.form_pairs(cls.filter_class(params)), params)
        )

    def get_context_data(self, **kwargs):
        params = self.request.GET.copy()
        params.pop("page", None)
        return super().get_context_data(
            filter_form=self.filter_form,
            query_string=params.urlencode(),
            is_filtered=bool(params),
            **kwargs,
        )


class TalkListView(_FilteredListView):
    """Every published talk, grouped by year, newest first."""

    template_name = "talks/list.html"
    context_object_name = "talks"
    filter_class = TalkFilter


class TalkDetailView(DetailView):
    """A talk with its speakers, place, links, description and the paper it presents."""

    template_name = "talks/detail.html"
    context_object_name = "talk"

    def get_queryset(self):
        return (
            Talk.objects.published()
            .for_listing()
            .select_related("featured_image")
            .prefetch_related("tags")
        )


class AwardListView(_FilteredListView):
    """Every published award and honor, grouped by year, newest first."""

    template_name = "talks/awards.html"
    context_object_name = "awards"
    filter_class = AwardFilter
