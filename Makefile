# Each target bootstraps .venv from pyproject.toml on first use (and again when pyproject.toml changes).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.toolgen-installed

.PHONY: generate check validate test bench clean venv

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

test: $(STAMP)
	$(BIN)/toolgen check
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) .toolgen-cache build dist *.egg-info
