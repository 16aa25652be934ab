#!/usr/bin/env bash
# Compares Palace's redactor with gitleaks' default rules on the same corpus
# (core/secrets/gitleaks_test.go): recall by category, code redacted, and
# throughput on a sample of Go's source. gitleaks is added to a copy of
# go.mod, so Palace's own dependencies do not change.
#   scripts/secrets-vs-gitleaks.sh [gitleaks version, default v8.30.1]
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:-v8.30.1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp go.mod "$tmp/go.mod"
cp go.sum "$tmp/go.sum"
export GOFLAGS="-buildvcs=false -modfile=$tmp/go.mod"
go get "github.com/zricethezav/gitleaks/v8@$version" >/dev/null 2>&1
go test -count=1 -tags gitleaks -run '^TestCompareGitleaks$' -v ./core/secrets | grep -v '^=== RUN'
go test -count=1 -tags gitleaks -run '^$' -bench 'GoSource$' -benchtime 3x ./core/secrets | grep -E '^Benchmark|^ok'
