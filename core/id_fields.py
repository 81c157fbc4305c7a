"""Choice fields of rows (a select, an autocomplete) that check a submitted id before any
query: a value that is no id of the row's model ("abc", a number past the column's range)
is the form's "Select a valid choice", and the form shown again holds no such value for
its widget to look up (Django's autocomplete widget queries every value it is given)."""

from django import forms
from django.core.exceptions import ValidationError
from django.db import connections


def is_id(field, value):
    """Whether `value` can be a value of the model field `field` (the key a choice field
    submits): it converts, and a whole number fits the column."""
    try:
        value = field.to_python(value)
    except (ValidationError, ValueError, TypeError):
        return False
    if isinstance(value, int):
        low, high = connections["default"].ops.integer_field_range(field.get_internal_type())
        return (low is None or value >= low) and (high is None or value <= high)
    return True


def _key_field(choice_field):
    """The model field whose values the choice field submits: its `to_field_name`, else
    the primary key."""
    opts = choice_field.queryset.model._meta
    return opts.get_field(choice_field.to_field_name) if choice_field.to_field_name else opts.pk


class IdChoiceField(forms.ModelChoiceField):
    def to_python(self, value):
        if value in self.empty_values:
            return None
        value = getattr(value, self.to_field_name or "pk", value)  # an instance, as given
        if not is_id(_key_field(self), value):
            raise ValidationError(
                self.error_messages["invalid_choice"],
                code="invalid_choice",
                params={"value": value},
            )
        return super().to_python(value)

    def bound_data(self, data, initial):
        if self.disabled:
            return initial
        if data in self.empty_values or is_id(_key_field(self), data):
            return data
        return None


class IdMultipleChoiceField(forms.ModelMultipleChoiceField):
    def _check_values(self, value):
        key = _key_field(self)
        for pk in value:
            if not isinstance(pk, self.queryset.model) and not is_id(key, pk):
                raise ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": pk},
                )
        return super()._check_values(value)

    def bound_data(self, data, initial):
        if self.disabled:
            return initial
        if not isinstance(data, list | tuple):
            return data
        key = _key_field(self)
        return [value for value in data if is_id(key, value)]
