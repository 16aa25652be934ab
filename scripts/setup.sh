#!/usr/bin/env bash
# Installs what building Palace needs on a fresh Debian machine with Go and
# Node, and with --test (make test) also what only the tests need, and says
# what it does. Safe to run again: it only installs what is missing.
#
#   scripts/setup.sh [--test]
#   scripts/setup.sh --staticcheck   (only staticcheck: make vet and make check)
set -euo pipefail
for_tests=false
[ "${1:-}" = --test ] && for_tests=true
cd "$(dirname "$0")/.."

# staticcheck, pinned to a release that knows this Go, from the Go module
# proxy into $(go env GOBIN), else $(go env GOPATH)/bin; make vet (so make
# test) and make check run it.
staticcheck_version=v0.8.2
install_staticcheck() {
	command -v go >/dev/null || { echo "setup: Go is not on PATH (Go 1.26 or newer is needed)" >&2; exit 1; }
	local bin
	bin="$(go env GOBIN)"
	bin="${bin:-$(go env GOPATH)/bin}/staticcheck"
	if ! "$bin" -version 2>/dev/null | grep -qF "(${staticcheck_version#v})"; then
		echo "==> go install honnef.co/go/tools/cmd/staticcheck@$staticcheck_version"
		GOFLAGS= go install "honnef.co/go/tools/cmd/staticcheck@$staticcheck_version"
	fi
}
if [ "${1:-}" = --staticcheck ]; then
	install_staticcheck
	exit 0
fi

need_apt=()
# sqlite3.h for the sqlite-vec cgo bindings.
dpkg -s libsqlite3-dev >/dev/null 2>&1 || need_apt+=(libsqlite3-dev)
# A C/C++ compiler for go-sqlite3 and gojieba.
command -v gcc >/dev/null 2>&1 || need_apt+=(gcc)
command -v g++ >/dev/null 2>&1 || need_apt+=(g++)
# strace, for the test that proves `palace hook run` starts no program.
command -v strace >/dev/null 2>&1 || need_apt+=(strace)
# The VS Code extension's end-to-end test (vscode-extension/test/run.sh):
# chromium, which playwright-core drives; ripgrep for code-server's offline
# ripgrep cache; a toolchain and headers for code-server's native modules
# (test/install-code-server.sh). Only `make test` needs them.
editor_test_pkgs=()
if $for_tests; then
	editor_test_pkgs=(chromium ripgrep build-essential pkg-config python3 libkrb5-dev libxkbfile-dev libx11-dev libsecret-1-dev)
fi
for p in "${editor_test_pkgs[@]}"; do
	dpkg -s "$p" >/dev/null 2>&1 || need_apt+=("$p")
done

# Emacs 28 with eglot, both from Debian, for the Emacs test
# (editors/emacs/test/run.sh); Emacs 29 and later carry eglot themselves.
if $for_tests; then
	command -v emacs >/dev/null 2>&1 || need_apt+=(emacs-nox)
	if ! command -v emacs >/dev/null 2>&1 || ! emacs --batch -Q --eval "(require 'eglot)" >/dev/null 2>&1; then
		dpkg -s elpa-eglot >/dev/null 2>&1 || need_apt+=(elpa-eglot)
	fi
fi

if ((${#need_apt[@]})); then
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	echo "==> apt-get install -y ${need_apt[*]}"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
else
	echo "==> system packages present (libsqlite3-dev, gcc, g++, strace${editor_test_pkgs[*]:+; for the VS Code e2e: ${editor_test_pkgs[*]}})"
fi

command -v go >/dev/null || { echo "setup: Go is not on PATH (Go 1.26 or newer is needed)" >&2; exit 1; }
echo "==> $(go version); go mod download"
go mod download

# ONNX Runtime for the fast embedding backend, from the npm package
# onnxruntime-node (pinned, checksummed), into .cache/ort-lib; the Makefile
# points PALACE_ORT_LIB at it. Without it Palace uses the pure-Go backend.
command -v npm >/dev/null || { echo "setup: npm is not on PATH (Node.js is needed for ONNX Runtime and the editor tests)" >&2; exit 1; }
echo "==> ONNX Runtime library (core/embed/setup_ort.sh .cache/ort-lib)"
bash core/embed/setup_ort.sh "$PWD/.cache/ort-lib"

# PostgreSQL 15 for the team palace tests (core/team): installed from
# Debian's packages when missing, its local cluster started.
if $for_tests; then
	bash scripts/postgres.sh >/dev/null
	install_staticcheck
fi
