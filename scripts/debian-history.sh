#!/usr/bin/env bash
# debian-history.sh PACKAGE DIR: a git repository with a real history for
# `palace bench code`, made from a Debian source package. The upstream tree
# is the first commit; each patch of debian/patches/series, applied in
# order, is one commit whose subject is the patch's own (its Subject: line,
# folded lines joined, without "[PATCH n/m]", or else its Description:
# line). Many of these patches are upstream fixes backported with their
# commit subjects, so they are questions of the kind `bench code` asks,
# about repositories in other languages than Palace's own.
#
# A patch that does not apply is left out; a patch with neither line gets
# the subject "x", which the benchmark skips as too short. Needs apt-get
# (Debian's source index is added under /etc/apt when missing: run as
# root), git and patch. Example:
#
#   bash scripts/debian-history.sh python-django /tmp/repos/python-django
#   bin/palace bench code --repo /tmp/repos/python-django
set -euo pipefail

pkg=${1:?usage: debian-history.sh PACKAGE DIR}
out=${2:?usage: debian-history.sh PACKAGE DIR}

if ! apt-get indextargets --format '$(CREATED_BY)' 2>/dev/null | grep -qx Sources; then
	echo "==> adding Debian's source index (deb-src) and updating apt" >&2
	. /etc/os-release
	cat >/etc/apt/sources.list.d/palace-deb-src.sources <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: ${VERSION_CODENAME}
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
	apt-get update -qq
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get source --download-only -qq "$pkg" >/dev/null 2>&1) ||
	{ echo "debian-history: apt-get source $pkg failed" >&2; exit 1; }
orig=$(ls "$work"/*.orig.tar.* | grep -v '\.asc$' | head -1)
debian=$(ls "$work"/*.debian.tar.* | head -1)

rm -rf "$out"
mkdir -p "$out" "$work/debian"
tar -xf "$orig" -C "$out" --no-same-owner --strip-components=1
tar -xf "$debian" -C "$work/debian" --no-same-owner
patches="$work/debian/debian/patches"

export GIT_AUTHOR_NAME=debian-history GIT_AUTHOR_EMAIL=debian-history@localhost
export GIT_COMMITTER_NAME=debian-history GIT_COMMITTER_EMAIL=debian-history@localhost
git -C "$out" init -q
git -C "$out" add -A -f
git -C "$out" commit -q -m "import upstream tree of $pkg"

# subject PATCH: the Subject: header with its folded lines, else the
# Description: line.
subject() {
	awk '
		/^Subject:/ { s = substr($0, 9); on = 1; next }
		on && /^[ \t]/ { s = s " " $0; next }
		{ on = 0 }
		/^Description:/ && d == "" { d = substr($0, 13) }
		END {
			if (s == "") s = d
			sub(/^[ \t]*\[PATCH[^]]*\][ \t]*/, "", s)
			gsub(/[ \t]+/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s)
			print (s == "" ? "x" : s)
		}' "$1"
}

applied=0 failed=0
if [ -f "$patches/series" ]; then
	while read -r name _; do
		case "$name" in '' | '#'*) continue ;; esac
		p="$patches/$name"
		if (cd "$out" && patch -p1 -s -f --no-backup-if-mismatch -i "$p" >/dev/null 2>&1); then
			git -C "$out" add -A -f
			git -C "$out" commit -q --allow-empty -m "$(subject "$p")"
			applied=$((applied + 1))
		else
			git -C "$out" reset -q --hard
			git -C "$out" clean -qfdx
			failed=$((failed + 1))
		fi
	done <"$patches/series"
fi
echo "$pkg: $applied patches applied, $failed left out, in $out"
