"""A request whose address or form holds a NUL byte is refused (400) before any view: no
text column of PostgreSQL can hold one, so a filter or search with it would be a 500."""

from django.http import HttpResponseBadRequest


class RefuseNulBytesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        query = request.META.get("QUERY_STRING", "")
        if "\x00" in request.path or "%00" in query or "\x00" in query:
            return HttpResponseBadRequest("The address holds a NUL byte.")
        if request.method == "POST" and request.content_type in (
            "application/x-www-form-urlencoded",
            "multipart/form-data",
        ):
            for values in request.POST.lists():
                if any("\x00" in value for value in values[1] if isinstance(value, str)):
                    return HttpResponseBadRequest("The form holds a NUL byte.")
        return self.get_response(request)
