# Tapete: `make run` plays, `make test` checks everything. Both install what they need.
VENV ?= .venv
PY := $(VENV)/bin/python
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

BENCHENV ?= .benchenv

# Bytecode cached (__pycache__, ignored by git) even where the environment says not to
# (PYTHONDONTWRITEBYTECODE): each of the test runs' nine pytest processes would otherwise
# compile the test modules and rewrite their assertions again, ~6 CPU s each
# (bench/RESULTS.md, «The test suite's time, again»).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run check test screenshots lint system-deps compiled bench bench-peers clean

# (the install compiles One Card's rules, setup.py says how; an edit of them is compiled
# again before the next run or test: until then the source runs, tapete/compiled.py)
$(VENV)/.installed: pyproject.toml setup.py
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e .
	touch $@ $(VENV)/.compiled

$(VENV)/.compiled: $(VENV)/.installed $(addprefix tapete/games/onecard/,game.py pieces.py structs.py)
	$(PY) -m pip install -q --no-deps -e .
	touch $@

# The tests run the compiled rules: built again if an install found no C compiler (`make
# run` on a fresh machine, before system-deps installed gcc)
compiled: system-deps $(VENV)/.compiled
	@$(PY) -c "import tapete.games.onecard as o; raise SystemExit(not o.COMPILED)" 2>/dev/null \
	  || $(PY) -m pip install -q --no-deps -e .

# (the dev extra's packages by name: `pip install -e '.[dev]'` would build Tapete, and
# compile its rules, a second time)
$(VENV)/.dev: $(VENV)/.installed
	$(PY) -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']['dev']))" > $(VENV)/dev-requirements.txt
	$(PY) -m pip install -q -r $(VENV)/dev-requirements.txt
	touch $@

run: $(VENV)/.compiled
	$(VENV)/bin/tapete serve

# Debian packages the tests use: chromium and chromium-headless-shell (browser tests: most
# run in the headless shell, tests/e2e/conftest.py says why), postgresql (the store on
# PostgreSQL), redis-server and caddy (several processes as one hall, behind one address),
# nodejs and npm (the JS lint), gcc (One Card's rules compiled: setup.py)
system-deps:
	@missing=""; \
	command -v gcc >/dev/null 2>&1 || missing="$$missing gcc"; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v chromium-headless-shell >/dev/null 2>&1 || missing="$$missing chromium-headless-shell"; \
	command -v npm >/dev/null 2>&1 || missing="$$missing nodejs npm"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	command -v redis-server >/dev/null 2>&1 || missing="$$missing redis-server"; \
	command -v caddy >/dev/null 2>&1 || missing="$$missing caddy"; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages for the tests:$$missing"; \
	  $(SUDO) apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q $$missing; \
	fi

# ESLint for the ES modules, pinned by package-lock.json, in node_modules/ (again when the lock
# changes); node and npm are Debian's, installed here when missing (as system-deps does)
node_modules/.installed: package-lock.json
	@command -v npm >/dev/null 2>&1 || { \
	  echo "Installing Debian packages for the JS lint: nodejs npm"; \
	  $(SUDO) apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q nodejs npm; }
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

lint: $(VENV)/.dev node_modules/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports
	$(VENV)/bin/tapete catalogs check
	node_modules/.bin/eslint --max-warnings 0 tapete/server/static/js/

# The developer's loop, after every change (under a minute here): the lint beside every test
# that starts no process (no browser, no PostgreSQL, Redis or Caddy, no tapete serve) and is
# not a long playout — tests/conftest.py marks them «processes» and «slow»; the lint's report
# follows the tests'.
check: $(VENV)/.dev $(VENV)/.compiled node_modules/.installed
	@lintlog=$$(mktemp); \
	$(MAKE) -s lint >"$$lintlog" 2>&1 & linting=$$!; \
	$(PY) -m pytest -W error -q -n 2 --ignore=tests/e2e -m "not processes and not slow"; tests=$$?; \
	wait $$linting; lint=$$?; \
	echo "== the lint (make lint): exit $$lint =="; cat "$$lintlog"; rm -f "$$lintlog"; \
	[ $$lint -eq 0 ] && [ $$tests -eq 0 ]

# The room, table and socket tests once more with the three speed-ups at stock: the stock
# websockets server, Python's own collector, SQLite's moves written on a thread of their own
# (docs/architecture.md, «Stock settings»). Their servers read the same settings from the
# environment as tapete serve's flags: the rooms' and the sockets' tests, the writes that must
# be durable before they are shown (a full disk too), a crash, and of the several processes'
# tests the two whose frames go from process to process (the others are about a process or
# Redis that dies: leases, not sockets; 13 CPU s more).
STOCK := TAPETE_WS=websockets TAPETE_GC_POLICY=off TAPETE_SQLITE_WRITER=thread
CLUSTER := tests/cluster/test_processes.py
STOCK_TESTS := tests/rooms tests/server/test_socket.py tests/server/test_socket_limits.py \
	tests/server/test_stale_socket.py tests/server/test_bad_frames.py tests/server/test_crash.py \
	tests/server/test_durable_views.py tests/server/test_full_disk.py \
	$(CLUSTER)::test_a_game_is_played_through_another_process_than_its_owner \
	$(CLUSTER)::test_a_private_room_across_processes_by_its_code

# Everything at once: the lint, the browser tests, the rest, and the stock run, the tests each
# on two workers (pytest-xdist, each worker with its own servers on free ports): the browser
# suite mostly waits on Chromium and its server, the rest is Python (bench/RESULTS.md, «The
# browser suite on two workers»); the stock run beside them rather than after the rest keeps
# both cores busy to the end (bench/RESULTS.md, «The suite's time, the stock run beside»).
# The reports follow the rest's; any part failing fails. Each pytest has a base temporary
# directory of its own: in the shared /tmp/pytest-of-$$USER, one run's cleanup of old
# directories races another's (a directory listing left open, a ResourceWarning that
# -W error turns into a failure).
test: system-deps $(VENV)/.dev compiled node_modules/.installed
	@lintlog=$$(mktemp); log=$$(mktemp); stocklog=$$(mktemp); tmp=$$(mktemp -d); \
	$(MAKE) -s lint >"$$lintlog" 2>&1 & linting=$$!; \
	$(PY) -m pytest -W error -n 2 --basetemp="$$tmp/e2e" tests/e2e >"$$log" 2>&1 & browser=$$!; \
	$(STOCK) $(PY) -m pytest -W error -q -n 2 --basetemp="$$tmp/stock" $(STOCK_TESTS) \
	  >"$$stocklog" 2>&1 & stocking=$$!; \
	$(PY) -m pytest -W error -n 2 --basetemp="$$tmp/rest" --ignore=tests/e2e; rest=$$?; \
	wait $$stocking; stock=$$?; \
	echo "== the room, table and socket tests at stock settings ($(STOCK)) =="; \
	cat "$$stocklog"; rm -f "$$stocklog"; \
	wait $$linting; lint=$$?; \
	echo "== the lint (make lint) =="; cat "$$lintlog"; rm -f "$$lintlog"; \
	wait $$browser; e2e=$$?; \
	echo "== the browser tests (tests/e2e) =="; cat "$$log"; rm -f "$$log"; rm -rf "$$tmp"; \
	echo "== the lint: exit $$lint; the rest: exit $$rest; at stock settings: exit $$stock;" \
	  "the browser tests: exit $$e2e =="; \
	[ $$lint -eq 0 ] && [ $$rest -eq 0 ] && [ $$stock -eq 0 ] && [ $$e2e -eq 0 ]

# The browser tests saving what they saw, to look at: artifacts/screenshots/*.png (make test
# audits the same states and saves no picture)
screenshots: system-deps $(VENV)/.dev compiled
	TAPETE_SCREENSHOTS=1 $(PY) -m pytest -W error -q -n 2 tests/e2e

bench: $(VENV)/.compiled
	$(PY) bench/guerra.py
	$(PY) bench/onecard_bots.py
	$(PY) bench/rummy_bots.py

# The benchmarks against other projects, in a virtualenv of their own (numpy, OpenSpiel,
# RLCard, rummikub-solver) so that Tapete itself depends on none of them.
$(BENCHENV)/.installed:
	python3 -m venv $(BENCHENV)
	$(BENCHENV)/bin/python -m pip install -q --upgrade pip
	$(BENCHENV)/bin/python -m pip install -q open-spiel rlcard==1.2.0 rummikub-solver numpy
	$(BENCHENV)/bin/python -m pip install -q -e .
	touch $@

bench-peers: $(BENCHENV)/.installed
	$(BENCHENV)/bin/python bench/onecard_engine.py
	$(BENCHENV)/bin/python bench/rummy_solver.py

clean:
	rm -rf $(VENV) $(BENCHENV) .mypy_cache .ruff_cache .pytest_cache artifacts
