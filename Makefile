# One task runner. `make demo` and `make test` do all set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install demo test lint typecheck unit fuzz corpus bench clean

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

# Ten times the Hypothesis examples: 12,000 fuzzed task.toml and scenario.json documents.
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=thorough $(BIN)/python -m pytest tests/dsl/test_fuzz.py

# The corpus is proven in CI: generated files current, lint clean, every control met.
corpus: $(STAMP)
	$(BIN)/benchsmith build --check --all
	$(BIN)/benchsmith lint --strict tasks examples
	$(BIN)/benchsmith check --all -j 2

test: lint typecheck unit corpus

bench: $(STAMP)
	$(BIN)/python bench/bench_build.py
	$(BIN)/python bench/bench_lint.py
	$(BIN)/python bench/bench_seed.py
	$(BIN)/python bench/bench_check.py
	$(BIN)/python bench/bench_run.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
