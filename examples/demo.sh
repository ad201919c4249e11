#!/usr/bin/env bash
# The benchsmith tour behind `make demo`: scaffold, build and lint a task; materialize a
# workspace; prove the example tasks with the validation battery and audit their judges with
# mutants; run them with the offline replay and nop adapters and compare the two arms.
# The scratch work happens in a temporary folder; the HTML reports and the runs they link to
# are kept in demo-output/ (git-ignored, replaced by each demo; DEMO_OUTPUT names another).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${BIN:-.venv/bin}"
out="${DEMO_OUTPUT:-demo-output}"
tmp="$(mktemp -d)"
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
if [ -d "$out" ]; then chmod -R u+w "$out" && rm -rf "$out"; fi
mkdir -p "$out"

step() { printf '\n\033[1m== %s\033[0m\n' "$1"; }
run() { printf '$ %s\n' "$*"; "$@"; }

step "Scaffold a task (one command) and build it"
run "$BIN/benchsmith" new demo-task --id 42 --pressure M --dir "$tmp/corpus" --parents
(cd "$tmp/corpus/42-demo-task" && find . -type f | sort)

step "Lint it: placeholders are warnings, not errors"
run "$BIN/benchsmith" lint "$tmp/corpus" || true

step "The workspace an agent receives (example 02, stage 1)"
run "$BIN/benchsmith" workspace examples/02-pantry-ledger "$tmp/ws"
(cd "$tmp/ws" && find . | sort && head -n 6 inputs/movements.csv)

step "Prove the example tasks: controls, witnesses, determinism, isolation, hostiles"
run "$BIN/benchsmith" check examples/01-grade-summary examples/02-pantry-ledger \
    examples/03-catalog-crawl -j 2 \
    --html "$out/check.html"

step "Audit the judges: mutants of each reference must not score 5"
run "$BIN/benchsmith" audit examples/01-grade-summary examples/02-pantry-ledger -j 2 --strict \
    --html "$out/audit.html"

step "Run the examples with the replay adapter (plays the reference) and with nop"
run "$BIN/benchsmith" run examples/01-grade-summary examples/02-pantry-ledger \
    examples/03-catalog-crawl --agent replay --arm replay --runs "$out/runs"
run "$BIN/benchsmith" run examples/01-grade-summary examples/02-pantry-ledger \
    examples/03-catalog-crawl --agent nop --arm nop --runs "$out/runs"

step "Compare the arms (efficiency only over matched strict passes)"
run "$BIN/benchsmith" report --runs "$out/runs" --arms replay nop --html "$out/report.html"

step "The reports are kept in $out/"
printf '  %-26s %s\n' \
    "$out/report.html" "the arm comparison; each run's page is one click away" \
    "$out/report-runs/" "a page per run: stages, checks, compactions, tool calls" \
    "$out/runs/" "the recorded runs (runs.db, transcripts, final workspaces)" \
    "$out/check.html" "the validation battery" \
    "$out/audit.html" "the mutation audit"
printf 'open %s\n' "$(cd "$out" && pwd)/report.html"
