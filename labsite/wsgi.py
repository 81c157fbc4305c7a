import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "labsite.settings")
application = get_wsgi_application()

from labsite import db_deadline  # noqa: E402 (needs the settings loaded)
from labsite.page_cache import CachedPagesApp  # noqa: E402

# A hung database costs a request seconds, not the worker (open connections included).
db_deadline.install()

# Cached public pages are answered before Django's request cycle starts.
application = CachedPagesApp(application)

# What a worker has made by now (settings, models, every view through the URLs) lives as
# long as it does: frozen out of the garbage collector's full passes, which otherwise walk
# all of it (about 130,000 objects, 58 ms measured) inside whichever request sets one off.
get_resolver().url_patterns  # noqa: B018 (imports every view before the freeze)
gc.collect()
gc.freeze()
