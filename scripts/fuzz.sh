#!/usr/bin/env bash
# Runs every Go fuzz target in the module with the given budget each: a
# number of executions ("20000x", the default, what make test uses) or a
# duration ("2m") for longer local runs.
#
# Why counts in CI: with a duration, Go's fuzz coordinator can end a clean
# run with a bare "context deadline exceeded" and no failing input, a race
# in internal/fuzz (golang/go#75804, fixed in Go 1.27) that a loaded 2-core
# CI machine hits on targets that pass every other time. An execution count
# sets no deadline, so a slow machine only takes longer. With a duration, a
# run that ends that way without writing an input is reported as that race
# and run once more; any other failure stops the run.
#
#   FUZZ_PARALLEL  fuzz workers per target (go test -parallel; default one
#                  per CPU). Use 1 on a shared machine.
#   FUZZ_PKGS      packages to look in (default ./...).
#   FUZZ_MATCH     only targets whose name matches this regexp.
#
# Each target prints its last progress line (time, execs, new interesting
# inputs) and its result; the first failure stops the run with the whole
# log, and Go writes the failing input to the package's testdata/fuzz/.
set -euo pipefail
cd "$(dirname "$0")/.."
budget="${1:-20000x}"
if ! [[ "$budget" =~ ^[0-9]+x$ || "$budget" =~ ^[0-9]+(ms|s|m|h)$ ]]; then
	echo "fuzz.sh: budget $budget is neither an execution count (20000x) nor a duration (2m)" >&2
	exit 2
fi
par=()
if [ -n "${FUZZ_PARALLEL:-}" ]; then
	par=(-parallel "$FUZZ_PARALLEL")
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
fuzz() { go test -run='^$' -fuzz="^$1\$" -fuzztime="$budget" ${par[@]+"${par[@]}"} "$2" >"$log" 2>&1; }
# shellcheck disable=SC2086 # FUZZ_PKGS may name several packages
for pkg in $(go list ${FUZZ_PKGS:-./...}); do
	dir=$(go list -f '{{.Dir}}' "$pkg")
	for f in $(grep -hoE '^func (Fuzz[A-Za-z0-9_]+)\(' "$dir"/*_test.go 2>/dev/null | sed -E 's/^func (Fuzz[A-Za-z0-9_]+)\(/\1/' | sort -u); do
		[[ "$f" =~ ${FUZZ_MATCH:-.} ]] || continue
		echo "==> fuzz $pkg $f for $budget"
		if ! fuzz "$f" "$pkg"; then
			if [[ "$budget" == *x ]] || grep -q 'Failing input written to' "$log" || ! grep -q 'context deadline exceeded' "$log"; then
				cat "$log"
				exit 1
			fi
			echo "fuzz: $f ended in 'context deadline exceeded' with no failing input (golang/go#75804); running it again"
			fuzz "$f" "$pkg" || { cat "$log"; exit 1; }
		fi
		grep '^fuzz: elapsed' "$log" | tail -1 || true
		tail -1 "$log"
	done
done
