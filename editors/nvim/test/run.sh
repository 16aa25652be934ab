#!/usr/bin/env bash
# Runs the Neovim plugin's end-to-end test: headless Neovim with only this
# plugin, driving the real `palace serve --lsp` on a fixture workspace.
#
#   PALACE_BIN   the palace binary (default: built from this repository into a temp dir)
#   NVIM         the nvim to run (default: nvim; installed with apt-get when missing)
#   PALACE_TEST_TIMEOUT  seconds before a hung run is killed (default 180)
#   PALACE_TEST_VERBOSE=1  also print Neovim's stderr, :messages, the panel, status and wake-up
#
# Prints one line per check, closes with "N passed, N failed", exits non-zero on failure.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
nvim="${NVIM:-nvim}"

if ! command -v "$nvim" >/dev/null 2>&1; then
	if [ "$nvim" = nvim ] && command -v apt-get >/dev/null 2>&1; then
		echo "==> apt-get install neovim"
		sudo=""
		[ "$(id -u)" = 0 ] || sudo="sudo"
		$sudo apt-get update -qq
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq neovim >/dev/null
	else
		echo "run.sh: $nvim not found (install Neovim 0.7.2 or newer)" >&2
		exit 1
	fi
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/palace-nvim-test.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

bin="${PALACE_BIN:-}"
if [ -z "$bin" ]; then
	bin="$tmp/bin/palace"
	echo "==> go build -o $bin ./cmd/palace"
	(cd "$repo" && GOFLAGS="${GOFLAGS:--buildvcs=false -tags=sqlite_fts5}" go build -o "$bin" ./cmd/palace)
fi
case "$bin" in
*/*) bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")" ;; # absolute: the spec runs elsewhere
*) bin="$(command -v "$bin" || true)" ;;                          # a name on $PATH
esac
[ -n "$bin" ] && [ -x "$bin" ] || { echo "run.sh: PALACE_BIN=${PALACE_BIN:-} is not an executable" >&2; exit 1; }

echo "==> $("$nvim" --version | head -n1), server: $bin serve --lsp"
mkdir -p "$tmp/xdg/config" "$tmp/xdg/data" "$tmp/xdg/state" "$tmp/xdg/cache" "$tmp/xdg/home"
# Isolated: no user config, packages, shada or ~/.palace; the palace home is
# passed with --home through the plugin's cmd option.
# Neovim's stdout (the checks) and stderr (headless Neovim writes messages
# there) are collected and printed afterwards, so the summary line stays the
# last line even when both streams share a log.
status=0
env -u PALACE_HOME -u VIMINIT -u NVIM_APPNAME \
	HOME="$tmp/xdg/home" \
	XDG_CONFIG_HOME="$tmp/xdg/config" XDG_DATA_HOME="$tmp/xdg/data" \
	XDG_STATE_HOME="$tmp/xdg/state" XDG_CACHE_HOME="$tmp/xdg/cache" \
	PALACE_TEST_BIN="$bin" PALACE_TEST_TMP="$tmp" \
	timeout -k 10 "${PALACE_TEST_TIMEOUT:-180}" \
	"$nvim" --headless -i NONE -n -u "$here/minimal_init.lua" \
	-c "luafile $here/spec.lua" -c 'cquit! 2' \
	</dev/null >"$tmp/stdout.log" 2>"$tmp/stderr.log" || status=$?
# The spec ends Neovim itself: 'cquit! 2' runs only if it could not.
if [ "$status" != 0 ] || [ -n "${PALACE_TEST_VERBOSE:-}" ]; then
	if [ -s "$tmp/stderr.log" ]; then
		echo "--- nvim stderr (messages)"
		cat "$tmp/stderr.log"
		echo
		echo "---"
	fi
fi
if [ "$status" = 124 ] || [ "$status" = 137 ]; then
	# Killed: report what ran, and the hang as one failure.
	grep -v -E '^[0-9]+ passed, [0-9]+ failed$' "$tmp/stdout.log" || true
	echo "FAIL run.sh: timed out after ${PALACE_TEST_TIMEOUT:-180}s"
	echo "$(grep -c '^ok ' "$tmp/stdout.log" || true) passed, $(( $(grep -c '^FAIL ' "$tmp/stdout.log" || true) + 1 )) failed"
elif ! tail -n1 "$tmp/stdout.log" | grep -q -E '^[0-9]+ passed, [0-9]+ failed$'; then
	cat "$tmp/stdout.log"
	echo "FAIL run.sh: nvim exited with $status before the end of the spec"
	echo "$(grep -c '^ok ' "$tmp/stdout.log" || true) passed, $(( $(grep -c '^FAIL ' "$tmp/stdout.log" || true) + 1 )) failed"
	[ "$status" != 0 ] || status=1
else
	cat "$tmp/stdout.log"
fi
exit "$status"
