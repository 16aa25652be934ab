#!/usr/bin/env bash
# Runs the concurrency suite: a CLI mine, an MCP SDK client and an LSP
# client writing to one palace at once. Installs its npm packages (pinned by
# package-lock.json) when missing, builds ./cmd/palace unless PALACE_BIN is
# set, points the processes at the ONNX Runtime library `make build`
# installs (else the go backend embeds), then `node --test`.
#
#   PALACE_BIN      the palace binary (default: a fresh build of ./cmd/palace)
#   PALACE_LONG=1   mine all of $(go env GOROOT)/src (default: a subset)
#   PALACE_KEEP=1   keep the temporary palaces and logs
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$here"
command -v node >/dev/null || { echo "run.sh: node is not on PATH (Node.js 20 or newer is needed)" >&2; exit 1; }
command -v go >/dev/null || { echo "run.sh: go is not on PATH (the test mines Go's src tree)" >&2; exit 1; }
if [ ! -d node_modules/@modelcontextprotocol/sdk ] || [ ! -d node_modules/vscode-languageserver-protocol ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
	echo "==> npm ci (server/concurrency)"
	npm ci --no-audit --no-fund --loglevel=error
fi
if [ -z "${PALACE_BIN:-}" ]; then
	tmpbin="$(mktemp -d)"
	trap 'rm -rf "$tmpbin"' EXIT
	bin="$tmpbin/palace"
	echo "==> go build -o $bin ./cmd/palace"
	(cd "$repo" && GOFLAGS="${GOFLAGS:--buildvcs=false -tags=sqlite_fts5}" go build -o "$bin" ./cmd/palace)
	export PALACE_BIN="$bin"
fi
# The one place the suite's ONNX Runtime library is chosen (the test passes
# PALACE_ORT_LIB on as it is). The Makefile exports the path `make build`
# installs to even before the file is there, and palace treats an explicit
# library it cannot use as an error, so a missing file means the go backend.
if [ -z "${PALACE_ORT_LIB:-}" ]; then
	PALACE_ORT_LIB="$repo/.cache/ort-lib/libonnxruntime.so"
fi
if [ -f "$PALACE_ORT_LIB" ]; then
	export PALACE_ORT_LIB
else
	echo "==> no ONNX Runtime library at $PALACE_ORT_LIB (make build installs it): the go backend embeds"
	unset PALACE_ORT_LIB
fi
echo "==> node --test (palace: $PALACE_BIN; ORT: ${PALACE_ORT_LIB:-none, go backend})"
node --test --test-concurrency=1 "$here"/*.test.mjs
