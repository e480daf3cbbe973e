# Each target bootstraps .venv from pyproject.toml on first use (and again when pyproject.toml changes).
# Three stamps: generating needs only toolgen and its dependencies (STAMP); the test suite, the lint
# gate and the benchmarks add the test extra (TEST_STAMP), which pins black, the judge of generated style;
# the benchmarks also add the bench extra (BENCH_STAMP), the agent SDKs benchmarks/return_path.py compares.
PYTHON     ?= python3
VENV       ?= .venv
BIN        := $(VENV)/bin
PIP        := $(BIN)/python -m pip install --quiet --disable-pip-version-check
STAMP      := $(VENV)/.toolgen-installed
TEST_STAMP := $(VENV)/.toolgen-test-installed
BENCH_STAMP := $(VENV)/.toolgen-bench-installed
# The pinned TypeScript toolchain for the TS checks (tests/ts/package.json and its lockfile).
TS_DIR     := tests/ts
TS_STAMP   := $(TS_DIR)/node_modules/.toolgen-installed

.PHONY: generate check validate test lint bench clean venv ts-deps conformance

# The development setup: everything, test extra included.
venv: $(TEST_STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) --upgrade pip
	$(PIP) -e .
	touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(PIP) -e '.[test]'
	touch $(TEST_STAMP)

generate: $(STAMP)
	$(BIN)/toolgen generate

check: $(STAMP)
	$(BIN)/toolgen check

validate: $(STAMP)
	$(BIN)/toolgen validate

test: $(TEST_STAMP) lint ts-deps
	$(BIN)/toolgen check
	$(BIN)/python -m pytest

# The conformance corpus alone: is it what Python answers now, and does the TS runtime pass it
# (tests/conformance/, docs/conformance.md). `make test` runs both as part of the suite.
CONFORMANCE_PACKAGES := js_names orders
conformance: $(TEST_STAMP) ts-deps
	$(BIN)/python tests/conformance/generate.py --check
	rm -rf build/conformance
	for name in $(CONFORMANCE_PACKAGES); do \
		$(BIN)/toolgen generate --specs tests/data/$$name/specs --out build/conformance/$$name-py \
			--ts-out build/conformance/$$name --no-docs >/dev/null || exit 1; \
	done
	node tests/conformance/run.mjs $(foreach name,$(CONFORMANCE_PACKAGES),--package $(name)=build/conformance/$(name))

# Installs the TS toolchain when npm exists; without it the TS tests are skipped (and say so loudly).
ts-deps:
	@if command -v npm >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory $(TS_STAMP); \
	else \
		echo "*** npm not found: the TypeScript checks will be SKIPPED, not passed (install Node.js 20+ and npm) ***"; \
	fi

$(TS_STAMP): $(TS_DIR)/package.json $(TS_DIR)/package-lock.json
	npm ci --prefix $(TS_DIR) --no-audit --no-fund
	touch $(TS_STAMP)

# The lint and type gate, part of `make test`: ruff with the rule set in pyproject.toml, and mypy --strict (set
# there too) over the generator, its runtime (generator/runtime/), the generated package as vendored, and the
# reference handlers. Both tools are pinned in the test extra, so every machine judges the same way.
lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy generator generated handlers

# A peer that does not install is no reason to skip the rest: the stamp stays unset (the next run tries
# again) and benchmarks/return_path.py names every peer it cannot import.
$(BENCH_STAMP): $(TEST_STAMP)
	@if $(PIP) -e '.[bench]'; then touch $(BENCH_STAMP); else \
		echo "*** the bench extra did not install: return_path.py reports the peers it cannot import ***"; \
	fi

bench: $(BENCH_STAMP) ts-deps
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/frontend.py
	$(BIN)/python benchmarks/ts.py
	$(BIN)/python benchmarks/ts_bundle.py
	$(BIN)/python benchmarks/return_path.py
	$(BIN)/python benchmarks/return_path.py --ts
	$(BIN)/python benchmarks/patterns.py
	$(BIN)/python benchmarks/breaking.py
	$(BIN)/python benchmarks/lsp_session.py
	$(BIN)/python benchmarks/mcp_server.py

clean:
	rm -rf $(VENV) .toolgen-cache build dist *.egg-info $(TS_DIR)/node_modules
