# The two entry points: `make run` (the main job) and `make test` (the whole suite).
# Both create the virtual environment .venv on first use and reinstall when pyproject.toml changes.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP_QUIET := --quiet --disable-pip-version-check

.PHONY: run test check lint clean help

help:
	@echo "make run    check the records, build the database and the site"
	@echo "make test   run the whole test suite (installs the test extras)"
	@echo "make lint   ruff, mypy --strict and the schema freshness check"

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed; set PYTHON=...")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install $(PIP_QUIET) --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install $(PIP_QUIET) -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install $(PIP_QUIET) -e '.[test]'
	@touch $(VENV)/.installed $@

run: $(VENV)/.installed
	$(BIN)/registry check
	$(BIN)/registry db
	$(BIN)/registry site

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest -n auto --dist loadgroup

lint: $(VENV)/.installed-test
	$(BIN)/ruff check registry tests
	$(BIN)/mypy registry
	$(BIN)/registry schema --check

clean:
	rm -rf build site/generated .registry-cache
