# One task runner. `make demo` and `make test` do all set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install sandbox demo test lint typecheck unit corpus bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: sandbox $(STAMP)

# Candidates run under bubblewrap (README: Sandbox). Root installs it; anyone else is told how.
sandbox:
	@command -v bwrap >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update && apt-get install -y bubblewrap; \
	  else \
	    echo "bubblewrap (bwrap) is missing; install it with: sudo apt-get install bubblewrap" >&2; \
	    exit 1; \
	  fi; \
	}

demo: sandbox $(STAMP)
	BIN=$(BIN) examples/demo.sh

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: sandbox $(STAMP)
	$(BIN)/python -m pytest

# The corpus is proven in CI: generated files current, lint clean, every control met.
corpus: sandbox $(STAMP)
	$(BIN)/benchsmith build --check --all
	$(BIN)/benchsmith lint --strict tasks examples
	$(BIN)/benchsmith check --all -j 2

test: lint typecheck unit corpus

bench: sandbox $(STAMP)
	$(BIN)/python bench/bench_build.py
	$(BIN)/python bench/bench_lint.py
	$(BIN)/python bench/bench_seed.py
	$(BIN)/python bench/bench_check.py
	$(BIN)/python bench/bench_run.py
	$(BIN)/python bench/bench_sandbox.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
