# Tapete: `make run` plays, `make test` checks everything. Both install what they need.
VENV ?= .venv
PY := $(VENV)/bin/python
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test lint system-deps bench clean

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e .
	touch $@

$(VENV)/.dev: $(VENV)/.installed
	$(PY) -m pip install -q -e '.[dev]'
	touch $@

run: $(VENV)/.installed
	$(VENV)/bin/tapete serve

# Debian packages the tests use: chromium (browser tests), postgresql (the store on PostgreSQL)
system-deps:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	[ -x /usr/lib/postgresql/15/bin/initdb ] || missing="$$missing postgresql"; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages for the tests:$$missing"; \
	  $(SUDO) apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q $$missing; \
	fi

lint: $(VENV)/.dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

test: $(VENV)/.dev system-deps lint
	$(PY) -m pytest -W error

bench: $(VENV)/.installed
	$(PY) bench/guerra.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache artifacts
