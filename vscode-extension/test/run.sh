#!/usr/bin/env bash
# Unit tests (stubbed vscode + real bundle + real palace) then the code-server e2e.
# PALACE_BIN: the palace binary (default: build it). SKIP_E2E=1 runs the unit tests only.
# The e2e's system packages (chromium, code-server's build needs) come from
# scripts/setup.sh --test (run by `make test`); this script only checks for them.
set -uo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
cd "$HERE"
export npm_config_cache="${npm_config_cache:-$HOME/.npm}"
pass=0; fail=0
# counted NAME RC LOG: adds the "# pass N" / "# fail N" lines of a TAP log.
# A suite that exited non-zero without a counted failure (timeout killed it,
# node crashed before its summary) or that reported no test at all counts as
# one failure: a missing summary is not a pass.
counted() {
  local name="$1" rc="$2" p f
  p=$(awk '/^# (e2e )?pass /{s+=$NF} END{print s+0}' "$3"); f=$(awk '/^# (e2e )?fail /{s+=$NF} END{print s+0}' "$3")
  pass=$((pass + p)); fail=$((fail + f))
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    if [ "$rc" -eq 124 ]; then echo "$name: timed out (killed by timeout) before reporting a failure"
    else echo "$name: exited with status $rc without reporting a failure"; fi
    fail=$((fail + 1))
  elif [ $((p + f)) -eq 0 ]; then
    echo "$name: no TAP summary (no \"# pass N\" line): no test ran"
    fail=$((fail + 1))
  fi
}
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]; exit $?; }

if [ -z "${PALACE_BIN:-}" ]; then
  ( cd "$HERE/.." && GOFLAGS="-buildvcs=false -tags=sqlite_fts5" go build -o bin/palace ./cmd/palace ) || { echo "palace build failed"; fail=1; finish; }
  export PALACE_BIN="$HERE/../bin/palace"
fi
export PALACE_BIN="$(cd "$(dirname "$PALACE_BIN")" && pwd)/$(basename "$PALACE_BIN")"

# The .vsix is built with the README's command, as a user would (stdin
# closed: vsce must not need to ask anything); `vscode:prepublish` bundles.
rm -rf out test/artifacts; mkdir -p test/artifacts
( export npm_config_prefer_offline=true npm_config_audit=false npm_config_fund=false
  npm ci && npm run package ) </dev/null >"$HERE/test/artifacts/package.log" 2>&1 || { cat test/artifacts/package.log; echo "npm ci && npm run package failed"; fail=1; finish; }
[ -f out/palace.vsix ] || { echo "npm run package wrote no out/palace.vsix"; fail=1; finish; }
npx tsc -p . || { echo "typecheck failed"; fail=1; finish; }

LOG="$(mktemp)"
trap 'rm -f "$LOG"' EXIT
timeout 180 node --test --test-concurrency=1 test/unit/ 2>&1 | tee "$LOG" | grep -E '^(not )?ok |^# (pass|fail)'
counted "unit tests" "${PIPESTATUS[0]}" "$LOG"

if [ "${SKIP_E2E:-0}" != 1 ]; then
  # scripts/setup.sh --test (run by `make test`) installs these;
  # this script only checks, it never installs system packages.
  missing=()
  [ -x "${CHROMIUM:-/usr/bin/chromium}" ] || missing+=("chromium (${CHROMIUM:-/usr/bin/chromium} not found; CHROMIUM=path picks another)")
  if [ ! -x test/.cache/code-server/node_modules/.bin/code-server ]; then
    # What test/install-code-server.sh needs: rg for its offline ripgrep
    # cache, a toolchain and headers for code-server's native modules.
    for p in ripgrep build-essential pkg-config python3 libkrb5-dev libxkbfile-dev libx11-dev libsecret-1-dev; do
      dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
  fi
  if ((${#missing[@]})); then
    echo "e2e: missing system packages: ${missing[*]}. Run \`bash scripts/setup.sh --test\` (\`make test\` runs it), or SKIP_E2E=1 for the unit tests only."
    fail=$((fail + 1)); finish
  fi
  bash test/install-code-server.sh >/dev/null 2>&1 || { echo "code-server install failed"; fail=$((fail + 1)); finish; }
  timeout 300 node test/e2e/run-e2e.js 2>&1 | tee "$LOG"
  counted "e2e" "${PIPESTATUS[0]}" "$LOG"
fi
finish
