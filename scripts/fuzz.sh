#!/usr/bin/env bash
# Runs every Go fuzz target in the module for the given time each (default
# 10s). CI uses a short time; run longer locally, e.g. scripts/fuzz.sh 5m.
set -euo pipefail
cd "$(dirname "$0")/.."
t="${1:-10s}"
for pkg in $(go list ./...); do
	dir=$(go list -f '{{.Dir}}' "$pkg")
	for f in $(grep -hoE '^func (Fuzz[A-Za-z0-9_]+)\(' "$dir"/*_test.go 2>/dev/null | sed -E 's/^func (Fuzz[A-Za-z0-9_]+)\(/\1/' | sort -u); do
		echo "==> fuzz $pkg $f for $t"
		go test -run='^$' -fuzz="^$f\$" -fuzztime="$t" "$pkg" > /tmp/palace-fuzz.log 2>&1 || { cat /tmp/palace-fuzz.log; exit 1; }
		tail -1 /tmp/palace-fuzz.log
	done
done
