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

system-deps:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  $(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q chromium; }

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
