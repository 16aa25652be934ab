#!/usr/bin/env bash
# Runs every Go fuzz target in the module for the given time each (default
# 10s). CI uses a short time; run longer locally, e.g. scripts/fuzz.sh 2m.
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
t="${1:-10s}"
par=()
if [ -n "${FUZZ_PARALLEL:-}" ]; then
	par=(-parallel "$FUZZ_PARALLEL")
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# shellcheck disable=SC2086 # FUZZ_PKGS may name several packages
for pkg in $(go list ${FUZZ_PKGS:-./...}); do
	dir=$(go list -f '{{.Dir}}' "$pkg")
	for f in $(grep -hoE '^func (Fuzz[A-Za-z0-9_]+)\(' "$dir"/*_test.go 2>/dev/null | sed -E 's/^func (Fuzz[A-Za-z0-9_]+)\(/\1/' | sort -u); do
		[[ "$f" =~ ${FUZZ_MATCH:-.} ]] || continue
		echo "==> fuzz $pkg $f for $t"
		go test -run='^$' -fuzz="^$f\$" -fuzztime="$t" ${par[@]+"${par[@]}"} "$pkg" >"$log" 2>&1 || { cat "$log"; exit 1; }
		grep '^fuzz: elapsed' "$log" | tail -1 || true
		tail -1 "$log"
	done
done
