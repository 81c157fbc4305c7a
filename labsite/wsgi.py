import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "labsite.settings")
application = get_wsgi_application()

from labsite import db_deadline  # noqa: E402 (needs the settings loaded)
from labsite.page_cache import CachedPagesApp  # noqa: E402

# A hung database costs a request seconds, not the worker (open connections included).
db_deadline.install()

# Cached public pages are answered before Django's request cycle starts.
application = CachedPagesApp(application)
