#!/usr/bin/env bash
# Compares Palace's redactor with gitleaks' default rules on the same inputs
# (core/secrets/gitleaks_test.go): every secret gitleaks finds in the corpus
# Palace must find too; recall by category, code redacted and throughput on
# a sample of Go's source are logged. gitleaks runs in a program of its own
# module (core/secrets/gitleakscmp, whose go.mod pins its version), so
# Palace's go.mod never requires it. make test runs the same tests.
#   scripts/secrets-vs-gitleaks.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export GOFLAGS="-buildvcs=false"
go test -count=1 -run '^TestCompareGitleaks(GoSource)?$' -v ./core/secrets | grep -v '^=== RUN'
