# The two set-up commands in README: `make run` and `make test`. Both need only Python 3.11.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1:8000

.PHONY: run test lint lock messages

$(PY):
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info[:2] < (3, 11))' || { echo "labsite needs Python 3.11 or newer (set PYTHON=...)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Installs the site, prepares a local .env on first use (DEBUG on, a fresh SECRET_KEY),
# migrates, loads the demo lab into an empty database, creates `admin`, and serves.
run: $(PY)
	$(PY) -m pip install --quiet -r requirements.lock
	$(PY) -m pip install --quiet --no-deps -e .
	@test -f .env || { printf 'DEBUG=on\nSECRET_KEY=%s\n' "$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(50))')" > .env; echo "Wrote .env for local use (DEBUG=on)."; }
	$(PY) manage.py catalogs compile
	$(PY) manage.py migrate --no-input
	$(PY) manage.py load_demo --if-empty
	$(PY) manage.py ensure_admin
	@echo "Serving http://$(HOST)/  (admin: http://$(HOST)/admin/)"
	$(PY) manage.py runserver $(HOST)

# Installs the locked test set and runs the whole suite (SQLite unless DATABASE_URL says
# otherwise).
test: $(PY)
	$(PY) -m pip install --quiet -r requirements-test.lock
	$(PY) -m pip install --quiet --no-deps -e .
	$(PY) manage.py catalogs compile
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
