"""Settings for labsite, read from the environment (or a `.env` file) through django-environ."""

import datetime
import os
import re
from pathlib import Path

import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = BASE_DIR / "data"

env = environ.Env()
# Values already in the environment win over the file; LABSITE_ENV_FILE points elsewhere.
environ.Env.read_env(os.environ.get("LABSITE_ENV_FILE", BASE_DIR / ".env"), overwrite=False)

DEBUG = env.bool("DEBUG", default=False)

SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set the SECRET_KEY environment variable (or put it in .env); "
            "it may only be left out when DEBUG is on."
        )
    SECRET_KEY = "insecure-key-for-local-debugging-only"

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "labsite.apps.LabsiteAdminConfig",  # django.contrib.admin, the index in the site's order
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "simple_history",
    "axes",
    "django_tasks",
    "django_tasks_db",
    # The layers, bottom up: building blocks, what every app shares (lab settings, editing
    # roles, the admin base), then the apps (each may use those before it), then the site
    # (settings, URLs, pages composing the apps, sitemaps, the demo).
    "core",
    "lab",
    "media",
    "tags",
    "people",
    "publications",
    "talks",
    "harvest",
    "website",
    "labsite",
]

MIDDLEWARE = [
    # First: a page served from the cache needs none of the rest (labsite/page_cache/).
    "labsite.page_cache.PublicPageCacheMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The page's language: from its URL on public pages, the editor's choice in the admin.
    "labsite.i18n.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # A NUL byte in an address or a form is refused: PostgreSQL's text holds none.
    "labsite.nul_bytes.RefuseNulBytesMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its lockout response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "labsite.urls"
WSGI_APPLICATION = "labsite.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "labsite.context_processors.lab",
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{DATA_DIR / 'labsite.sqlite3'}"),
}
# Persistent connections (seconds), checked before reuse: set in production on PostgreSQL.
# A worker keeps an SQLite file open by default: a new connection starts with an empty page
# cache and reads the schema again (10-30% of a cold page build).
_SQLITE = DATABASES["default"]["ENGINE"].endswith("sqlite3")
# A database that does not answer costs a request a few seconds and the outage page
# (labsite/outages.py), not the worker: seconds to connect, and to run one statement.
DATABASE_CONNECT_TIMEOUT = env.int("DATABASE_CONNECT_TIMEOUT", default=3)
DATABASE_STATEMENT_TIMEOUT = env.int("DATABASE_STATEMENT_TIMEOUT", default=20)
# Seconds a web request waits on one statement of an open connection before its socket is
# shut (labsite/db_deadline.py): the server's statement_timeout cannot fire if it hangs.
DATABASE_QUERY_DEADLINE = env.float("DATABASE_QUERY_DEADLINE", default=3.0)
_options = DATABASES["default"].setdefault("OPTIONS", {})
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    _options.setdefault("connect_timeout", DATABASE_CONNECT_TIMEOUT)
    _options.setdefault("options", f"-c statement_timeout={DATABASE_STATEMENT_TIMEOUT * 1000}")
    # A server gone from the network (not merely hung) is noticed by the kernel within
    # seconds, idle or mid-statement, rather than after TCP's two hours or fifteen minutes.
    _options.setdefault("keepalives", 1)
    _options.setdefault("keepalives_idle", 10)
    _options.setdefault("keepalives_interval", 3)
    _options.setdefault("keepalives_count", 3)
    _options.setdefault("tcp_user_timeout", 10_000)  # milliseconds
elif _SQLITE:
    _options.setdefault("timeout", DATABASE_STATEMENT_TIMEOUT)  # waiting for another's write
    # A transaction takes the write lock when it begins, waiting its turn (the timeout): one
    # that read first and wrote later could not wait, and failed with "database is locked"
    # when the task worker wrote meanwhile.
    _options.setdefault("transaction_mode", "IMMEDIATE")
# On PostgreSQL each web worker listens for the content version's moves rather than reading
# it on every cache hit (labsite/page_cache/push.py); off behind a pooler that cannot LISTEN.
CONTENT_VERSION_PUSH = env.bool("CONTENT_VERSION_PUSH", default=True)
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=600 if _SQLITE else 60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CACHES = {"default": env.cache("CACHE_URL", default="locmemcache://")}
# Sites (or test runs) sharing one cache server keep apart by a prefix of their own.
CACHES["default"]["KEY_PREFIX"] = env.str("CACHE_KEY_PREFIX", default="")
if CACHES["default"]["BACKEND"].endswith("LocMemCache"):
    # Room for whole public pages (labsite/page_cache/), about 100 MB at most for pages
    # of typical size; Redis is sized by its own configuration (maxmemory, allkeys-lru).
    CACHES["default"].setdefault("OPTIONS", {}).setdefault("MAX_ENTRIES", 1000)
# Public pages served whole from the cache to anonymous visitors until content changes (on
# by default; off with DEBUG, where a template edit should show at once, and with a cache
# that keeps nothing, where preparing a page for storing would be wasted).
PAGE_CACHE = env.bool(
    "PAGE_CACHE", default=not DEBUG and not CACHES["default"]["BACKEND"].endswith("DummyCache")
)
# A lab of one: the slug of the member whose profile is the site's home page (the team
# page goes away, the menu is theirs). Empty: a lab's site.
PERSONAL_SITE = env.str("PERSONAL_SITE", default="")
# Seconds a worker skips a cache server that failed to answer (labsite/page_cache/breaker.py).
CACHE_SKIP_SECONDS = env.int("CACHE_SKIP_SECONDS", default=30)
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    # A cache server that hangs costs one request two seconds, not every page nor the worker.
    CACHES["default"]["BACKEND"] = "labsite.page_cache.breaker.RedisCache"
if "redis" in CACHES["default"]["BACKEND"].lower():
    CACHES["default"].setdefault("OPTIONS", {})
    CACHES["default"]["OPTIONS"].setdefault("socket_connect_timeout", 2)
    CACHES["default"]["OPTIONS"].setdefault("socket_timeout", 2)

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Failed logins: after AXES_FAILURE_LIMIT failures for one username from one address, that
# pair is locked out until the cool-off has passed (never a permanent lock).
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)

# A restore reads no archive member larger than this (a file of a few kilobytes can unpack
# to gigabytes), nor more than the second in all: bytes, unpacked.
ARCHIVE_MAX_MEMBER_BYTES = env.int("ARCHIVE_MAX_MEMBER_BYTES", default=1024 * 1024 * 1024)
ARCHIVE_MAX_TOTAL_BYTES = env.int("ARCHIVE_MAX_TOTAL_BYTES", default=4 * 1024 * 1024 * 1024)
AXES_COOLOFF_TIME = datetime.timedelta(minutes=env.int("AXES_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
AXES_CLIENT_IP_CALLABLE = "labsite.client_ip.client_ip"

LOGIN_URL = "admin:login"

# The public address of the site, for links in e-mails and printed invitations.
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")
# Who Crossref, ORCID and OpenAlex may contact about this site's requests (their "polite"
# pools ask for it); the lab's contact e-mail from the lab settings when empty.
CONTACT_EMAIL = env.str("CONTACT_EMAIL", default="")
# Where each scholarly service is reached: their public APIs by default; a mirror, an
# institution's proxy or the tests' local replay server otherwise.
ORCID_API_URL = env.str("ORCID_API_URL", default="https://pub.orcid.org/v3.0").rstrip("/")
OPENALEX_URL = env.str("OPENALEX_URL", default="https://api.openalex.org").rstrip("/")
CROSSREF_URL = env.str("CROSSREF_URL", default="https://api.crossref.org").rstrip("/")
DBLP_URL = env.str("DBLP_URL", default="https://dblp.org").rstrip("/")
ARXIV_URL = env.str("ARXIV_URL", default="https://export.arxiv.org").rstrip("/")
GITHUB_API_URL = env.str("GITHUB_API_URL", default="https://api.github.com").rstrip("/")
SEMANTIC_SCHOLAR_URL = env.str(
    "SEMANTIC_SCHOLAR_URL", default="https://api.semanticscholar.org/graph/v1"
).rstrip("/")
EUROPEPMC_URL = env.str(
    "EUROPEPMC_URL", default="https://www.ebi.ac.uk/europepmc/webservices/rest"
).rstrip("/")
DATACITE_URL = env.str("DATACITE_URL", default="https://api.datacite.org").rstrip("/")
# Semantic Scholar's API key (sent as x-api-key): without one, the shared public rate limit.
SEMANTIC_SCHOLAR_API_KEY = env.str("SEMANTIC_SCHOLAR_API_KEY", default="")
# Seconds between two requests to one service (arXiv asks for 3; the others allow more).
HARVEST_PAUSE = env.float("HARVEST_PAUSE", default=1.0)
ARXIV_PAUSE = env.float("ARXIV_PAUSE", default=3.0)
HARVEST_TIMEOUT = env.float("HARVEST_TIMEOUT", default=10.0)  # seconds for a whole answer
# Bounds on one answer: its size (a page of 200 OpenAlex works with long author lists is a
# few MB) and the works it lists (more than any page a run asks for; the rest is not read).
HARVEST_MAX_ANSWER_MB = env.int("HARVEST_MAX_ANSWER_MB", default=20)
HARVEST_MAX_ITEMS = env.int("HARVEST_MAX_ITEMS", default=2000)
# Works completed from their DOI (Crossref's record of a work ORCID lists without its
# authors) in one run, one request each at HARVEST_PAUSE; the rest wait for the next run.
HARVEST_MAX_COMPLETIONS = env.int("HARVEST_MAX_COMPLETIONS", default=500)

# Background work (a harvest the admin queues): django-tasks with its database backend, so
# the worker needs nothing the site does not already have. `make run` starts one beside the
# development server; production runs `manage.py task_worker` as a service (README).
TASKS = {
    "default": {"BACKEND": env.str("TASKS_BACKEND", default="django_tasks_db.DatabaseBackend")}
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# English pages are unprefixed (/people/teng-ma/), Chinese ones under /zh-hans/. Messages are
# in locale/ (compiled by `manage.py catalogs compile`, which `make run`/`make test` call);
# dates follow the formats in labsite/formats/<language>/.
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["labsite.formats"]
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=DATA_DIR / "static")
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = env.str("MEDIA_URL", default="/media/")
# The media library's renditions (media/renditions.py), beside the uploads in the storage.
IMAGEKIT_CACHEFILE_DIR = "renditions"
# imagekit's own names for them (source_name_as_path), remembered once worked out
IMAGEKIT_SPEC_CACHEFILE_NAMER = "media.renditions.remembered_name"
MEDIA_ROOT = env.path("MEDIA_ROOT", default=DATA_DIR / "media")
# Uploads kept between two requests (core/private_storage.py): the files chosen in a refused
# admin form, and a site's ZIP between its preview and its import. Private, never served, and
# never under MEDIA_ROOT; with S3_BUCKET they go to the bucket (below), which every worker on
# every machine sees. KEPT_UPLOADS_DIR, the folder's name when it held only the forms' files,
# still names it.
PRIVATE_UPLOADS_DIR = env.path(
    "PRIVATE_UPLOADS_DIR", default=env.path("KEPT_UPLOADS_DIR", default=DATA_DIR / "kept-uploads")
)
if Path(PRIVATE_UPLOADS_DIR).resolve().is_relative_to(Path(MEDIA_ROOT).resolve()):
    raise ImproperlyConfigured(
        "PRIVATE_UPLOADS_DIR is inside MEDIA_ROOT, which the web server serves; "
        "give it a folder of its own."
    )
STORAGES = {
    "default": {"BACKEND": "core.storage.LocalStorage"},
    "uploads": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {
            "location": PRIVATE_UPLOADS_DIR,
            "file_permissions_mode": 0o600,
            "directory_permissions_mode": 0o700,
        },
    },
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Every stored upload has a name of its own that is never given other bytes: photos, logos,
# media-library images and PDFs are stored under fresh random names (core/images.py,
# core/documents.py) and an image's renditions are named from its stored name
# (media/renditions.py), so a replaced image is a new address. Browsers may keep each for a
# year without asking again; the bucket stores this with every file (below), and the web
# server sends it for a local media folder (docs/production.md, step 9).
MEDIA_CACHE_CONTROL = "public, max-age=31536000, immutable"

# Uploaded media on S3-compatible object storage (the `prod` extra installs django-storages):
# set the bucket, and the endpoint for anything but AWS (MinIO, Ceph, R2). Credentials come
# from the usual AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY. Files are public-read by URL
# (photos on pages); PDFs are still linked and served through the site.
S3_BUCKET = env.str("S3_BUCKET", default="")
if S3_BUCKET:
    from botocore.config import Config

    _bucket = {
        "bucket_name": S3_BUCKET,
        "endpoint_url": env.str("S3_ENDPOINT_URL", default="") or None,
        "region_name": env.str("S3_REGION", default="") or None,
        "file_overwrite": False,
        # Objects are written with no ACL: buckets with ACLs turned off (AWS's default)
        # refuse any other; the bucket's policy says who may read them.
        "default_acl": None,
        # A storage that hangs refuses an upload (labsite/outages.py) within
        # attempts × (connect + read timeout), before gunicorn's timeout (30 s) would
        # end the worker.
        "client_config": Config(
            connect_timeout=env.float("STORAGE_CONNECT_TIMEOUT", default=3),
            read_timeout=env.float("STORAGE_READ_TIMEOUT", default=5),
            retries={"mode": "standard", "max_attempts": 2},
        ),
    }
    STORAGES["default"] = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            **_bucket,
            "custom_domain": env.str("S3_CUSTOM_DOMAIN", default="") or None,
            "querystring_auth": False,
            "object_parameters": {"CacheControl": MEDIA_CACHE_CONTROL},
        },
    }
    # The kept uploads: under a prefix of their own that the bucket's policy leaves private
    # (docs/production.md), and with no address but a signed one that soon expires.
    STORAGES["uploads"] = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            **_bucket,
            "location": "private",
            "querystring_auth": True,
            "querystring_expire": 60,
            # read back through a temporary file, not memory, past this (a site's ZIP)
            "max_memory_size": 2 * 2**20,
        },
    }
    if not MEDIA_URL.startswith(("http://", "https://")):
        # The address images are loaded from, for the Content-Security-Policy below.
        _domain = env.str("S3_CUSTOM_DOMAIN", default="")
        _endpoint = env.str("S3_ENDPOINT_URL", default="https://s3.amazonaws.com").rstrip("/")
        MEDIA_URL = f"https://{_domain}/" if _domain else f"{_endpoint}/{S3_BUCKET}/"

# /health/ says "degraded" when a folder the site writes to has less free than this.
HEALTH_MIN_FREE_DISK_MB = env.int("HEALTH_MIN_FREE_DISK_MB", default=500)

# Form fields other than files: a bound on what a POST may hold in memory. Uploaded files
# are capped by their own fields (photos 10 MB, PDFs 30 MB, imports 5 MB).
DATA_UPLOAD_MAX_MEMORY_SIZE = 12 * 1024 * 1024
FILE_UPLOAD_PERMISSIONS = 0o644

EMAIL_CONFIG = env.email("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="labsite@localhost")
# Seconds a mail server has to answer: a slow one costs an invitation that long, never a worker.
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)

# Security: on by default, relaxed only for local debugging over plain HTTP.
# Reverse proxies in front of the site. With 1 or more, "X-Forwarded-Proto: https" marks a
# request as secure and X-Forwarded-For gives the visitor's address for login lockouts: the
# proxy must set both headers itself, overwriting what the visitor sent.
TRUSTED_PROXIES = env.int("TRUSTED_PROXIES", default=0)
if TRUSTED_PROXIES:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
# Load balancers check health over plain HTTP inside the network.
SECURE_REDIRECT_EXEMPT = [r"^health/$"]
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Pages and the admin load scripts, styles, images and fonts from the site only, with no
# inline script or style; structured data blocks (JSON-LD) are not scripts and need nothing.
# MEDIA_URL on another host (object storage) is allowed for images.
_MEDIA_ORIGIN = [MEDIA_URL] if MEDIA_URL.startswith(("http://", "https://")) else []
# Hosts whose images a Markdown text may show (`![alt](https://host/…)`), besides the site's
# own media: a list, as img-src stays one; an image from any other host is not shown, and
# its editor is told why.
MARKDOWN_IMAGE_HOSTS = env.list("MARKDOWN_IMAGE_HOSTS", default=[])
for _host in MARKDOWN_IMAGE_HOSTS:
    if not re.fullmatch(r"[a-z0-9.-]+(:\d+)?", _host):
        raise ImproperlyConfigured(
            f"MARKDOWN_IMAGE_HOSTS: “{_host}” is not a host name (e.g. images.example.org)."
        )
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "img-src": [SELF, "data:", *_MEDIA_ORIGIN, *(f"https://{h}" for h in MARKDOWN_IMAGE_HOSTS)],
        # The video players a Markdown text may embed (core.markup.VIDEO_HOSTS), and no
        # other frame.
        "frame-src": [
            "https://www.youtube-nocookie.com",
            "https://player.vimeo.com",
            "https://player.bilibili.com",
        ],
        # The one inline style attribute a third-party admin template has (the history
        # paginator of django-simple-history: style="border-top: 0"), allowed by its hash.
        "style-src-attr": [
            "'unsafe-hashes'",
            "'sha256-XMXSevYjgSjXgRafBFDvtjwX+yyWLrxfso9DcNZ9UXM='",
        ],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
PERMISSIONS_POLICY = {
    feature: []
    for feature in [
        "accelerometer", "autoplay", "camera", "display-capture", "encrypted-media",
        "geolocation", "gyroscope", "magnetometer", "microphone", "midi", "payment", "usb",
    ]
}  # fmt: skip

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    # django-axes logs every successful login at INFO; lockouts are WARNING and still show.
    # WeasyPrint reports each step of typesetting a CV at INFO; its warnings still show.
    "loggers": {
        "axes": {"level": "WARNING"},
        "weasyprint": {"level": "WARNING"},
        "fontTools": {"level": "WARNING"},
    },
}
