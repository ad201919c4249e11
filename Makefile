# One task runner. `make demo` and `make test` do all set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Harbor (the Terminal-Bench successor) in its own Python 3.12 venv, never in the SDK's: the
# tests export tasks and run them with Harbor's own linter and orchestrator.
HARBOR_VERSION := 0.26.0
HARBOR_VENV := .venv-harbor
HARBOR_STAMP := $(HARBOR_VENV)/.installed-$(HARBOR_VERSION)

.PHONY: install sandbox harbor demo test lint typecheck unit unit-fast fuzz corpus audit bench clean runtime

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

$(HARBOR_STAMP): | $(STAMP)
	rm -rf $(HARBOR_VENV)
	"$$($(BIN)/python -c 'from benchsmith.pythons import require_python312; print(require_python312())')" \
		-m venv $(HARBOR_VENV)
	$(HARBOR_VENV)/bin/python -m pip install --quiet 'harbor==$(HARBOR_VERSION)'
	touch $(HARBOR_STAMP)

harbor: $(HARBOR_STAMP)

demo: sandbox $(STAMP)
	BIN=$(BIN) examples/demo.sh

# benchlib.py and run.py are assembled from their parts (sdk/runtime/), then copied into the
# corpora (ARCHITECTURE.md: What ships).
runtime: $(STAMP)
	$(BIN)/python -m benchsmith.assembly
	$(BIN)/benchsmith build --all
	$(BIN)/benchsmith build --all --corpus examples

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

# The Harbor tests skip without .venv-harbor; here they must run, so its absence fails them.
# Tests run on every core (pytest-xdist): most of their time is spent in child processes.
# The 25 slowest are listed at the end: where CI's minutes go.
unit: sandbox $(STAMP) $(HARBOR_STAMP)
	BENCHSMITH_REQUIRE_HARBOR=1 $(BIN)/python -m pytest -n auto --durations=25

# The quick inner loop: every test except those marked slow (large fixtures, whole batteries).
unit-fast: $(STAMP)
	$(BIN)/python -m pytest -n auto -m "not slow"

# Ten times the Hypothesis examples: 12,000 fuzzed task.toml and scenario.json documents.
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=thorough $(BIN)/python -m pytest tests/dsl/test_fuzz.py

# The corpus is proven in CI: generated files current, lint clean, every control met.
corpus: sandbox $(STAMP)
	$(BIN)/benchsmith build --check --all
	$(BIN)/benchsmith lint --strict tasks examples
	$(BIN)/benchsmith check --all -j 2

# Mutation analysis of the judges: no mutant of a reference may score 5, every equivalent
# mutant is justified, every expected value is load-bearing. The examples run every mutant.
# Each corpus task's fates come from its recorded full audit (audit.lock, written by
# `benchsmith audit N --strict --full --record`): a task whose files changed since fails as
# stale, and AUDIT_SAMPLE recorded mutants per task run again (seed AUDIT_SEED) and must
# meet their recorded fate, which catches a runtime change that judges a task differently.
# A full audit of the corpus is 2,562 mutants: too long for every CI run.
AUDIT_SAMPLE ?= 3
AUDIT_SEED ?= 0
AUDITED ?= --all
audit: sandbox $(STAMP)
	$(BIN)/benchsmith audit --all --corpus examples --strict -j 2 --full
	$(BIN)/benchsmith audit $(AUDITED) --strict -j 2 --recorded --sample $(AUDIT_SAMPLE) --seed $(AUDIT_SEED)

test: lint typecheck unit corpus audit

bench: sandbox $(STAMP)
	$(BIN)/python bench/bench_build.py
	$(BIN)/python bench/bench_lint.py
	$(BIN)/python bench/bench_seed.py
	$(BIN)/python bench/bench_seed_sensor.py
	$(BIN)/python bench/bench_check.py
	$(BIN)/python bench/bench_audit.py
	$(BIN)/python bench/bench_run.py
	$(BIN)/python bench/bench_export.py
	$(BIN)/python bench/bench_sandbox.py
	$(BIN)/python bench/bench_deep_tree.py

clean:
	rm -rf $(VENV) $(HARBOR_VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
