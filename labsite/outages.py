"""When a service the site keeps things in does not answer (the shared cache, the file
storage), what was asked of it is refused whole and said plainly: not half done, and not
answered with a server error."""

from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _


class ServiceUnavailable(Exception):
    """`service` does not answer. Raised inside a change's transaction, so nothing of the
    change is written."""

    service = _("A service the site relies on")


class CacheUnavailable(ServiceUnavailable):
    """A change could not be published to every worker (labsite.page_cache), or a session
    ended (labsite.sessions): the shared cache does not answer."""

    service = _("The site's cache server")


class StorageUnavailable(ServiceUnavailable):
    """An upload could not be stored (labsite.storage)."""

    service = _("The site's file storage")


class ServiceUnavailableMiddleware:
    """Answers a ServiceUnavailable with a page saying what does not answer, that nothing
    has changed, and to try again (503, Retry-After)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, ServiceUnavailable):
            return None
        page = render_to_string("labsite/service_unavailable.html", {"service": exception.service})
        return HttpResponse(page, status=503, headers={"Retry-After": "60"})
