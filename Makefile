# One task runner. `make demo` and `make test` do all set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install demo test lint typecheck unit corpus audit bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	BIN=$(BIN) examples/demo.sh

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/python -m pytest

# The corpus is proven in CI: generated files current, lint clean, every control met.
corpus: $(STAMP)
	$(BIN)/benchsmith build --check --all
	$(BIN)/benchsmith lint --strict tasks examples
	$(BIN)/benchsmith check --all -j 2

# Mutation analysis of the judges: no mutant of a reference may score 5, every equivalent
# mutant is justified, every expected value is load-bearing.
# TODO(tasks): run it over the corpus too (`$(BIN)/benchsmith audit --all --strict -j 2`) once
# the corpus tasks are fixed; until then only the examples are held to it.
audit: $(STAMP)
	$(BIN)/benchsmith audit --all --corpus examples --strict -j 2

test: lint typecheck unit corpus audit

bench: $(STAMP)
	$(BIN)/python bench/bench_build.py
	$(BIN)/python bench/bench_lint.py
	$(BIN)/python bench/bench_seed.py
	$(BIN)/python bench/bench_check.py
	$(BIN)/python bench/bench_audit.py
	$(BIN)/python bench/bench_run.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
