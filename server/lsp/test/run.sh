#!/usr/bin/env bash
# Runs the LSP integration suite: installs its npm packages (pinned by
# package-lock.json) when missing, then `node --test`. The server command is
# PALACE_LSP_CMD (a JSON array), else "$PALACE_BIN serve --lsp"; with
# neither set, ./cmd/palace is built and used.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
cd "$here"
command -v node >/dev/null || { echo "run.sh: node is not on PATH (Node.js 20 or newer is needed)" >&2; exit 1; }
if [ ! -d node_modules/vscode-languageserver-protocol ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
	echo "==> npm ci (server/lsp/test)"
	npm ci --no-audit --no-fund --loglevel=error
fi
if [ -z "${PALACE_LSP_CMD:-}" ] && [ -z "${PALACE_BIN:-}" ]; then
	tmpbin="$(mktemp -d)"
	trap 'rm -rf "$tmpbin"' EXIT
	bin="$tmpbin/palace"
	echo "==> go build -o $bin ./cmd/palace"
	(cd "$repo" && GOFLAGS="${GOFLAGS:--buildvcs=false -tags=sqlite_fts5}" go build -o "$bin" ./cmd/palace)
	export PALACE_BIN="$bin"
fi
echo "==> node --test (server: ${PALACE_LSP_CMD:-$PALACE_BIN serve --lsp})"
node --test --test-concurrency=2 "$here"/*.test.mjs
