#!/usr/bin/env bash
# Installs the ONNX Runtime shared library that Palace's `ort` embedding
# backend loads at run time (dlopen through github.com/yalue/onnxruntime_go;
# Palace has no link-time dependency on it and falls back to the slower
# pure-Go backend when it is missing).
#
# Usage: setup_ort.sh [LIB_DIR]   (in the repository: core/embed/setup_ort.sh;
#   the palace binary runs its embedded copy as `palace setup ort`)
#   LIB_DIR defaults to $PALACE_HOME/lib, else ~/.palace/lib: the folder
#   Palace searches after PALACE_ORT_LIB and before the system library paths.
#
# Where the library comes from: Debian has no onnxruntime package, so we take
# the prebuilt library shipped inside the npm package onnxruntime-node at a
# pinned version. `npm pack` is the ONLY network access this script makes;
# the tarball (~113 MB, all platforms) is cached under
# ${PALACE_ORT_CACHE:-${XDG_CACHE_HOME:-~/.cache}/palace/ort}, so later runs
# and other lib dirs need no network. Both the tarball and the extracted
# library are checked against SHA-256 sums recorded below; a library that is
# already installed with the right sum is left alone.
#
# Compatibility: onnxruntime_go v1.25.0 asks the library for ORT C API
# version 23, so the library must export OrtGetApiBase and be ORT >= 1.23.
# Bumping ORT_VERSION means re-recording every sum below.
set -euo pipefail
# Every folder this script creates (the palace home, its lib folder, the
# cache) is private to the user, like every folder Palace creates.
umask 077

ORT_VERSION=1.30.0
ORT_MIN_MINOR=23 # ORT_API_VERSION used by onnxruntime_go v1.25.0
TARBALL=onnxruntime-node-${ORT_VERSION}.tgz
TARBALL_SHA256=6e3390d6b783e7be946fad629292799da28d0b42f84856e50d2c1b0383291e75

case "${1:-}" in
-h | --help)
	sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 0
	;;
esac

say() { echo "setup_ort: $*"; }
die() {
	echo "setup_ort: $*" >&2
	exit 1
}

os=$(uname -s)
arch=$(uname -m)
case "$os/$arch" in
Linux/x86_64 | Linux/amd64)
	member=package/bin/napi-v6/linux/x64/libonnxruntime.so.1
	lib_name=libonnxruntime.so.1
	link_name=libonnxruntime.so
	lib_sha256=ffb75a925ba05e47b235bb66e3e3911714a80b328a9c9425539feb204aa32a23
	;;
Linux/aarch64 | Linux/arm64)
	member=package/bin/napi-v6/linux/arm64/libonnxruntime.so.1
	lib_name=libonnxruntime.so.1
	link_name=libonnxruntime.so
	lib_sha256=1f549d46250b005580b597f4164984aaf75b3bcb9f3aeb07c7f8a8fe60b23c76
	;;
Darwin/arm64)
	member=package/bin/napi-v6/darwin/arm64/libonnxruntime.${ORT_VERSION}.dylib
	lib_name=libonnxruntime.${ORT_VERSION}.dylib
	link_name=libonnxruntime.dylib
	lib_sha256=685d2be5dba1309c89d3a5324b7fd06a5c42f1a61bfea32d14c4cc28d072121d
	;;
*)
	die "unsupported platform $os/$arch: onnxruntime-node $ORT_VERSION ships libonnxruntime for linux x64, linux arm64 and macOS arm64 only. Palace still works here with the pure-Go embedding backend, or point PALACE_ORT_LIB at a libonnxruntime >= 1.$ORT_MIN_MINOR you built yourself."
	;;
esac

sha256() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -d' ' -f1
	else
		shasum -a 256 "$1" | cut -d' ' -f1
	fi
}

home=${PALACE_HOME:-$HOME/.palace}
lib_dir=${1:-$home/lib}
cache_dir=${PALACE_ORT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/palace/ort}
target=$lib_dir/$lib_name

if [ -f "$target" ] && [ "$(sha256 "$target")" = "$lib_sha256" ]; then
	ln -sf "$lib_name" "$lib_dir/$link_name"
	say "onnxruntime $ORT_VERSION already installed: $target (sha256 ok)"
	exit 0
fi

mkdir -p "$cache_dir"
tarball=$cache_dir/$TARBALL
if [ -f "$tarball" ] && [ "$(sha256 "$tarball")" != "$TARBALL_SHA256" ]; then
	say "cached $tarball has the wrong sha256; downloading it again"
	rm -f "$tarball"
fi
if [ ! -f "$tarball" ]; then
	command -v npm >/dev/null 2>&1 || die "npm is needed to fetch onnxruntime-node@$ORT_VERSION (apt-get install -y npm), or set PALACE_ORT_LIB to an existing libonnxruntime"
	say "npm pack onnxruntime-node@$ORT_VERSION -> $cache_dir (about 113 MB, the only download)"
	(cd "$cache_dir" && npm pack "onnxruntime-node@$ORT_VERSION" --silent >/dev/null) ||
		die "npm pack onnxruntime-node@$ORT_VERSION failed"
	[ -f "$tarball" ] || die "npm pack did not produce $tarball"
else
	say "using cached $tarball"
fi
got=$(sha256 "$tarball")
[ "$got" = "$TARBALL_SHA256" ] || die "sha256 mismatch for $tarball: got $got, want $TARBALL_SHA256 (delete it and retry; if it persists the npm package changed)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
say "extracting $member"
tar -xzf "$tarball" -C "$tmp" "$member" || die "$member not found in $tarball"
got=$(sha256 "$tmp/$member")
[ "$got" = "$lib_sha256" ] || die "sha256 mismatch for $member: got $got, want $lib_sha256"

# The C API entry point onnxruntime_go dlsyms, and (on Linux, from the ELF
# symbol version) a release new enough for API version $ORT_MIN_MINOR.
grep -aq OrtGetApiBase "$tmp/$member" || die "$member does not export OrtGetApiBase: not an onnxruntime library"
if [ "$os" = Linux ]; then
	vers=$(grep -ao 'VERS_1\.[0-9]*\.[0-9]*' "$tmp/$member" | head -n1 || true)
	minor=${vers#VERS_1.}
	minor=${minor%%.*}
	if [ -z "$vers" ] || [ "$minor" -lt "$ORT_MIN_MINOR" ]; then
		die "$member is ${vers:-of unknown version}; onnxruntime_go v1.25.0 needs ORT >= 1.$ORT_MIN_MINOR"
	fi
	say "library exports OrtGetApiBase@$vers (API $ORT_MIN_MINOR needs >= 1.$ORT_MIN_MINOR): ok"
fi

mkdir -p "$lib_dir"
install -m 0644 "$tmp/$member" "$target.tmp"
mv -f "$target.tmp" "$target"
ln -sf "$lib_name" "$lib_dir/$link_name"
say "installed $target (sha256 $lib_sha256) and $lib_dir/$link_name -> $lib_name"
