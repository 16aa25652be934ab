#!/usr/bin/env bash
# Runs the Emacs test: Emacs in batch mode with eglot loads
# editors/emacs/palace-eglot.el (the configuration the READMEs show), opens a
# file of a fixture workspace and talks to the real `palace serve --lsp`.
#
#   PALACE_BIN   the palace binary (default: built from this repository into a temp dir)
#   EMACS        the emacs to run (default: emacs; Emacs 28 + elpa-eglot come from
#                scripts/setup.sh --test)
#   PALACE_TEST_TIMEOUT  seconds before a hung run is killed (default 180)
#
# Prints one line per check, closes with "N passed, N failed", exits non-zero on failure.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
emacs="${EMACS:-emacs}"
command -v "$emacs" >/dev/null 2>&1 || { echo "run.sh: $emacs not found (scripts/setup.sh --test installs Emacs 28 and eglot)" >&2; exit 1; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/palace-emacs-test.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

bin="${PALACE_BIN:-}"
if [ -z "$bin" ]; then
	bin="$tmp/bin/palace"
	echo "==> go build -o $bin ./cmd/palace"
	(cd "$repo" && GOFLAGS="${GOFLAGS:--buildvcs=false -tags=sqlite_fts5}" go build -o "$bin" ./cmd/palace)
fi
case "$bin" in
*/*) bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")" ;;
*) bin="$(command -v "$bin" || true)" ;;
esac
[ -n "$bin" ] && [ -x "$bin" ] || { echo "run.sh: PALACE_BIN=${PALACE_BIN:-} is not an executable" >&2; exit 1; }
# eglot runs the server as "palace" from PATH, as the configuration says.
[ "$(basename "$bin")" = palace ] || { mkdir -p "$tmp/bin"; ln -s "$bin" "$tmp/bin/palace"; bin="$tmp/bin/palace"; }

echo "==> $("$emacs" --version | head -n1), server: $bin serve --lsp"
mkdir -p "$tmp/home-dir"
# -q: no user init, but the site start files, which put Debian's elpa-eglot
# on the load path. Emacs writes its messages to stderr; they are shown only
# when the run fails.
status=0
env -u PALACE_HOME HOME="$tmp/home-dir" \
	PALACE_TEST_REPO="$repo" PALACE_TEST_TMP="$tmp" PALACE_TEST_BIN="$bin" \
	timeout -k 10 "${PALACE_TEST_TIMEOUT:-180}" \
	"$emacs" --batch -q -l "$here/test.el" </dev/null >"$tmp/stdout.log" 2>"$tmp/stderr.log" || status=$?
cat "$tmp/stdout.log"
if [ "$status" != 0 ]; then
	echo "--- emacs stderr"
	cat "$tmp/stderr.log"
	tail -n1 "$tmp/stdout.log" | grep -q -E '^[0-9]+ passed, [0-9]+ failed$' || echo "FAIL run.sh: emacs exited with $status before the end of the test"
fi
exit "$status"
