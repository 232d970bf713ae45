#!/usr/bin/env bash
# Builds the course wheel, manylinux2014 (glibc 2.17: every Linux with
# glibc 2.17 or newer, CentOS 7, Ubuntu 18.04 and 20.04 included): maturin
# links the grader with zig against glibc 2.17's symbols (`--zig
# --compatibility manylinux2014`), then packaging/check-glibc.sh checks
# the binary in the wheel needs nothing newer. Prints the wheel's path.
#
# maturin and zig (the `ziglang` package) come from PyPI into
# target/packaging/maturin; a Rust toolchain for this machine's target is
# all else it needs (no other target or C library to install).
#
# Usage: packaging/build-wheel.sh  (from anywhere; writes target/wheels).
# Needs python3 with venv (Debian: python3-venv) and objdump (binutils).
set -euo pipefail
cd "$(dirname "$0")/.."
tools=$PWD/target/packaging/maturin
if [ ! -x "$tools/bin/python3" ]; then
  python3 -m venv "$tools"
fi
# The versions this build was checked with; a satisfied pin asks no index.
"$tools/bin/pip" install --quiet --disable-pip-version-check "maturin>=1.16,<2" "ziglang>=0.17,<0.18" >&2
rm -f target/wheels/rendezvous_grader-*.whl
# maturin finds zig as `python3 -m ziglang`, from the environment first.
PATH="$tools/bin:$PATH" maturin build --release --quiet --zig --compatibility manylinux2014 --out target/wheels >&2
wheels=(target/wheels/rendezvous_grader-*.whl)
[ "${#wheels[@]}" = 1 ] && [ -f "${wheels[0]}" ] || {
  echo "build-wheel: maturin wrote ${wheels[*]}, not one wheel" >&2
  exit 1
}
wheel=${wheels[0]}
case "$wheel" in
  *manylinux_2_17_*) ;;
  *) echo "build-wheel: $wheel is not tagged manylinux_2_17" >&2; exit 1 ;;
esac
unpacked=$(mktemp -d)
trap 'rm -rf "$unpacked"' EXIT
packaging/wheel-binary.sh "$wheel" "$unpacked/grader" >/dev/null
packaging/check-glibc.sh "$unpacked/grader" 2.17 >&2
echo "$PWD/$wheel"
