"""When a part of the stack the site relies on does not answer (the database, the file
storage, the disk it writes to), a request gets a page naming it, saying that nothing has
changed and to try again in a minute (503, Retry-After), and the log names the part: never
a bare server error. Django calls `server_error` for every exception a request raises
(labsite/urls.py), in a view or in a middleware, so no page type is left out."""

import errno
import logging
import sys

from django.db import DatabaseError
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _
from django.views import defaults

logger = logging.getLogger(__name__)

PARTS = {
    "database": _("The site's database"),
    "file storage": _("The site's file storage"),
    "disk": _("The disk the site stores files on"),
}
_DISK_FULL = (errno.ENOSPC, errno.EDQUOT)


def failing_part(error: BaseException | None) -> str | None:
    """The part of the stack (a key of PARTS) that `error` says does not answer, or None
    for any other fault."""
    if isinstance(error, DatabaseError) and not _is_programming_error(error):
        return "database"
    if isinstance(error, OSError) and error.errno in _DISK_FULL:
        return "disk"
    if _is_storage_outage(error):
        return "file storage"
    return None


def _is_programming_error(error):
    from django.db import DataError, IntegrityError, NotSupportedError, ProgrammingError

    # A fault in the code or the data, not a part that does not answer.
    return isinstance(error, (DataError, IntegrityError, NotSupportedError, ProgrammingError))


def _is_storage_outage(error):
    """Object storage (django-storages on botocore, the `prod` extra) refused, timed out,
    cut off, or failed on its own side (5xx)."""
    botocore = sys.modules.get("botocore.exceptions")
    if botocore is None:
        return False
    if isinstance(error, (botocore.ConnectionError, botocore.HTTPClientError)):
        return True
    if isinstance(error, botocore.ClientError):
        return error.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0) >= 500
    return False


def outage_response(part: str, changing: bool = False) -> HttpResponse:
    """The outage page for `part`, for a request that would have changed something or not:
    standalone, reading nothing (the database may be what failed)."""
    context = {"service": PARTS[part], "changing": changing}
    page = render_to_string("labsite/service_unavailable.html", context)
    return HttpResponse(page, status=503, headers={"Retry-After": "60"})


def server_error(request):
    """handler500: the outage page when a part of the stack does not answer, else Django's
    own 500 page (templates/500.html)."""
    error = sys.exc_info()[1]
    part = failing_part(error)
    if part is None:
        return defaults.server_error(request)
    logger.error("%s does not answer (%s): %s %s", part, error, request.method, request.path)
    return outage_response(part, changing=request.method not in ("GET", "HEAD"))
