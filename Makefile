# The two set-up commands in README: `make run` and `make test`. Both need only Python 3.11.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1:8000

.PHONY: run test lint lock messages system

# A CV's PDF needs Pango (WeasyPrint typesets with it) and the Noto fonts its stylesheet
# names alone: Noto Serif (fonts-noto-core) and Noto Serif CJK SC (fonts-noto-cjk);
# the tests read PDFs back with poppler-utils. Debian's packages are installed when
# missing (as root, or through sudo); on another system, install the same by hand. The site
# runs without them; only the PDF needs them.
SYSTEM_PACKAGES := libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-noto-core fonts-noto-cjk
system:
	@missing=$$(for p in $(SYSTEM_PACKAGES) $(SYSTEM_EXTRA); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  if command -v apt-get >/dev/null; then \
	    sudo=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	    { $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing >/dev/null; } \
	      || echo "Could not install $$missing: the site runs, but a CV's PDF needs them."; \
	  else echo "The CV's PDF needs: $$missing (Pango and the Noto fonts)"; fi; \
	fi

$(PY):
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info[:2] < (3, 11))' || { echo "labsite needs Python 3.11 or newer (set PYTHON=...)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Installs the site, prepares a local .env on first use (DEBUG on, a fresh SECRET_KEY),
# migrates, loads the demo lab into an empty database (not with DEMO=off: the lab starts
# empty), creates `admin`, and serves (with the task worker that runs queued harvests).
run: $(PY) system
	$(PY) -m pip install --quiet -r requirements.lock
	$(PY) -m pip install --quiet --no-deps -e .
	@test -f .env || { printf 'DEBUG=on\nSECRET_KEY=%s\n' "$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(50))')" > .env; echo "Wrote .env for local use (DEBUG=on)."; }
	$(PY) manage.py catalogs compile
	$(PY) manage.py migrate --no-input
	$(if $(filter off,$(DEMO)),@echo "DEMO=off: the lab starts empty.",$(PY) manage.py load_demo --if-empty)
	$(PY) manage.py ensure_admin
	@echo "Serving http://$(HOST)/  (admin: http://$(HOST)/admin/), with a task worker beside it"
	@# The worker runs what the admin queues (Harvest now); it stops with the server.
	$(PY) manage.py task_worker --no-startup-delay & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(PY) manage.py runserver $(HOST)

# Installs the locked test set and runs the whole suite (SQLite unless DATABASE_URL says
# otherwise; no .env is read or needed: tests/settings.py sets what the tests use) on every core, each test file in one process (pytest-xdist); PYTEST_ARGS=
# runs it in one.
PYTEST_ARGS ?= -n auto --dist loadfile
test: $(PY)
	$(MAKE) --no-print-directory system SYSTEM_EXTRA=poppler-utils
	$(PY) -m pip install --quiet -r requirements-test.lock
	$(PY) -m pip install --quiet --no-deps -e .
	DJANGO_SETTINGS_MODULE=tests.settings $(PY) manage.py catalogs compile
	$(PY) -m pytest $(PYTEST_ARGS)

# Re-resolves the lock files from the ranges in pyproject.toml (run after changing them, or
# to take newer releases; commit the result). The locks hold for every platform.
LOCK := $(VENV)/bin/uv pip compile pyproject.toml --universal --python-version 3.11 --no-header -q
lock: $(PY)
	$(PY) -m pip install --quiet uv
	$(LOCK) -o requirements.lock
	$(LOCK) --extra test -o requirements-test.lock
	$(LOCK) --extra prod -o requirements-prod.lock

lint: $(PY)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# After adding or changing a translatable string: add it to locale/*/django.po (then
# translate it there) and compile. Pure Python (Babel); no GNU gettext needed.
messages: $(PY)
	$(PY) manage.py catalogs update
	$(PY) manage.py catalogs compile
