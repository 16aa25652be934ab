#!/usr/bin/env bash
# How long a note waits for the write lock while a cold mine runs: mines
# TREE (default Go's src) lexically into a fresh palace and, meanwhile,
# remembers notes one after another with the CLI, then prints the mine's
# time and the notes' latencies (each includes the CLI's own start-up).
#
#   scripts/remember-during-mine.sh [PALACE_BIN [TREE]]
set -euo pipefail
bin="${1:-bin/palace}"
tree="${2:-$(go env GOROOT)/src}"
[ -x "$bin" ] || { echo "remember-during-mine: $bin is not an executable palace binary (make build)" >&2; exit 2; }
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
home="$dir/home"
"$bin" --home "$home" remember --wing notes "the palace exists before the mine starts" >/dev/null
start=$(date +%s%N)
("$bin" --home "$home" mine "$tree" --wing tree --no-vectors --no-progress --json >"$dir/mine.json" && date +%s%N >"$dir/mine.end") &
mine=$!
sleep 0.3
lat=()
i=0
while [ ! -f "$dir/mine.end" ] && kill -0 "$mine" 2>/dev/null; do
	i=$((i + 1))
	t=$(date +%s%N)
	"$bin" --home "$home" remember --wing notes --force "note $i written during the mine" >/dev/null
	lat+=($((($(date +%s%N) - t) / 1000000)))
done
wait "$mine"
end=$(cat "$dir/mine.end")
sorted=$(printf '%s\n' "${lat[@]}" | sort -n)
n=${#lat[@]}
echo "mine $(((end - start) / 1000000)) ms; $n notes during it: p50 $(echo "$sorted" | sed -n "$(((n + 1) / 2))p") ms, p90 $(echo "$sorted" | sed -n "$(((n * 9 + 9) / 10))p") ms, max $(echo "$sorted" | tail -1) ms"
