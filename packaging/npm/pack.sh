#!/usr/bin/env bash
# Packs the grader for npm the way esbuild and biome ship binaries: a
# package `rendezvous-grader` whose `grader` command (bin/grader.js) runs
# the binary of the platform package npm chose among its optional
# dependencies, and the platform package of this machine,
# `@rendezvous-grader/linux-<arch>`, holding the binary.
#
# The binary is the wheel's (packaging/build-wheel.sh), so it runs on
# every Linux with glibc 2.17 or newer; any binary given is checked for
# that floor first (packaging/check-glibc.sh), since the platform package
# claims every Linux of its CPU.
#
# Usage: packaging/npm/pack.sh [BINARY [OUT]]  BINARY defaults to the one
# in the wheel build-wheel.sh builds, OUT to target/npm; writes the two
# tarballs (`npm pack`) into OUT and prints their paths.
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=${1:-}
out=${2:-target/npm}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
if [ -z "$binary" ]; then
  wheel=$(packaging/build-wheel.sh)
  binary=$(packaging/wheel-binary.sh "$wheel" "$stage/grader")
fi
[ -x "$binary" ] || { echo "pack.sh: no grader binary at $binary" >&2; exit 2; }
packaging/check-glibc.sh "$binary" 2.17 >&2 || {
  echo "pack.sh: $binary would not run on every Linux the package claims; pack the wheel's binary (no BINARY)" >&2
  exit 2
}
version=$(cargo metadata --no-deps --format-version 1 |
  python3 -c 'import json,sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "rendezvous-grader"))')
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) arch=x64 ;;
  Linux-aarch64 | Linux-arm64) arch=arm64 ;;
  *) echo "pack.sh: no npm platform package for $(uname -s) $(uname -m)" >&2; exit 2 ;;
esac
description="Grades consistent-hashing challenge submissions against a reference and explains every difference"
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The platform package: the binary, for npm to install only on its
# operating system and CPU.
platform=$stage/platform
mkdir -p "$platform/bin"
cp "$binary" "$platform/bin/grader"
chmod 755 "$platform/bin/grader"
cat >"$platform/package.json" <<JSON
{
  "name": "@rendezvous-grader/linux-$arch",
  "version": "$version",
  "description": "The grader binary of rendezvous-grader for Linux $arch",
  "license": "MIT",
  "os": ["linux"],
  "cpu": ["$arch"],
  "files": ["bin/grader"],
  "preferUnplugged": true
}
JSON

# The package people install: the command, and every platform package as
# an optional dependency.
main=$stage/main
mkdir -p "$main/bin"
cp packaging/npm/grader/bin/grader.js "$main/bin/grader.js"
chmod 755 "$main/bin/grader.js"
cp README.md "$main/README.md"
cat >"$main/package.json" <<JSON
{
  "name": "rendezvous-grader",
  "version": "$version",
  "description": "$description",
  "license": "MIT",
  "bin": { "grader": "bin/grader.js" },
  "files": ["bin/grader.js"],
  "engines": { "node": ">=14" },
  "optionalDependencies": {
    "@rendezvous-grader/linux-x64": "$version",
    "@rendezvous-grader/linux-arm64": "$version"
  }
}
JSON
for dir in "$platform" "$main"; do
  (cd "$dir" && npm pack --silent --pack-destination "$out" >/dev/null)
done
ls "$out"/rendezvous-grader-linux-"$arch"-"$version".tgz "$out"/rendezvous-grader-"$version".tgz
