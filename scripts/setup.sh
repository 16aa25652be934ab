#!/usr/bin/env bash
# Installs what building and testing Palace needs on a fresh Debian machine
# with Go and Node, and says what it does. Safe to run again: it only
# installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
# sqlite3.h for the sqlite-vec cgo bindings.
dpkg -s libsqlite3-dev >/dev/null 2>&1 || need_apt+=(libsqlite3-dev)
# A C/C++ compiler for go-sqlite3 and gojieba.
command -v gcc >/dev/null 2>&1 || need_apt+=(gcc)
command -v g++ >/dev/null 2>&1 || need_apt+=(g++)
# strace, for the test that proves `palace hook run` starts no program.
command -v strace >/dev/null 2>&1 || need_apt+=(strace)

if ((${#need_apt[@]})); then
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	echo "==> apt-get install -y ${need_apt[*]}"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
else
	echo "==> system packages present (libsqlite3-dev, gcc, g++, strace)"
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
