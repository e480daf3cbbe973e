# Each target bootstraps .venv from pyproject.toml on first use (and again when pyproject.toml changes).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.toolgen-installed

.PHONY: generate check validate test lint bench clean venv

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

generate: $(STAMP)
	$(BIN)/toolgen generate

check: $(STAMP)
	$(BIN)/toolgen check

validate: $(STAMP)
	$(BIN)/toolgen validate

test: $(STAMP) lint
	$(BIN)/toolgen check
	$(BIN)/python -m pytest

# The lint and type gate, part of `make test`: ruff with the rule set in pyproject.toml, and mypy --strict (set
# there too) over the generator, its runtime (generator/runtime/), the generated package as vendored, and the
# reference handlers. Both tools are pinned in the test extra, so every machine judges the same way.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy generator generated handlers

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) .toolgen-cache build dist *.egg-info
