#!/usr/bin/env bash
# Unit tests (stubbed vscode + real bundle + real palace) then the code-server e2e.
# PALACE_BIN: the palace binary (default: build it). SKIP_E2E=1 runs the unit tests only.
set -uo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
cd "$HERE"
export npm_config_cache="${npm_config_cache:-$HOME/.npm}"
pass=0; fail=0
count() { # add the "# pass N" / "# fail N" lines of a TAP log
  local p f
  p=$(awk '/^# (e2e )?pass /{s+=$NF} END{print s+0}' "$1"); f=$(awk '/^# (e2e )?fail /{s+=$NF} END{print s+0}' "$1")
  pass=$((pass + p)); fail=$((fail + f))
}
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]; exit $?; }

if [ -z "${PALACE_BIN:-}" ]; then
  ( cd "$HERE/.." && GOFLAGS="-buildvcs=false -tags=sqlite_fts5" go build -o bin/palace ./cmd/palace ) || { echo "palace build failed"; fail=1; finish; }
  export PALACE_BIN="$HERE/../bin/palace"
fi
export PALACE_BIN="$(cd "$(dirname "$PALACE_BIN")" && pwd)/$(basename "$PALACE_BIN")"

[ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --prefer-offline --no-audit --no-fund >/dev/null || { echo "npm ci failed"; fail=1; finish; }
node esbuild.mjs --minify && npx tsc -p . || { echo "build/typecheck failed"; fail=1; finish; }
rm -rf test/artifacts; mkdir -p out test/artifacts
npx vsce package --no-dependencies --allow-missing-repository -o out/palace.vsix </dev/null >/dev/null || { echo "vsce package failed"; fail=1; finish; }

LOG="$(mktemp)"
timeout 180 node --test --test-concurrency=1 test/unit/ 2>&1 | tee "$LOG" | grep -E '^(not )?ok |^# (pass|fail)'
count "$LOG"

if [ "${SKIP_E2E:-0}" != 1 ]; then
  if ! command -v chromium >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }
  fi
  if ! command -v rg >/dev/null || ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ripgrep build-essential pkg-config python3 libkrb5-dev libxkbfile-dev libx11-dev libsecret-1-dev >/dev/null
  fi
  bash test/install-code-server.sh >/dev/null 2>&1 || { echo "code-server install failed"; fail=$((fail + 1)); finish; }
  timeout 300 node test/e2e/run-e2e.js 2>&1 | tee "$LOG"
  count "$LOG"
fi
rm -f "$LOG"
finish
