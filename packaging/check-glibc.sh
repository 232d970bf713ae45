#!/usr/bin/env bash
# Fails when BINARY needs a glibc newer than MAX (default 2.17, the
# manylinux2014 floor: CentOS 7, and older than Ubuntu 18.04's 2.27).
#
# The loader refuses a program at start when libc lacks any version the
# program's version references name (`objdump -p`), weak symbol or not;
# those references are what is read here, with the symbols that bring
# each too-new version in (`objdump -T`) named in the failure.
#
# Usage: packaging/check-glibc.sh BINARY [MAX]  (needs objdump: binutils)
set -euo pipefail
binary=${1:?usage: packaging/check-glibc.sh BINARY [MAX]}
max=${2:-2.17}
fail() {
  echo "check-glibc: $*" >&2
  exit 1
}
command -v objdump >/dev/null 2>&1 || fail "objdump is missing (Debian: apt-get install binutils)"
[ -f "$binary" ] || fail "no file at $binary"
headers=$(objdump -p "$binary" 2>&1) || fail "$binary is not an ELF file objdump can read: $headers"
# Every GLIBC_x.y the binary references, from its version needs.
mapfile -t versions < <(printf '%s\n' "$headers" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/^GLIBC_//' | sort -uV)
[ "${#versions[@]}" -gt 0 ] || fail "$binary references no glibc version: not a dynamically linked glibc program"
newer=()
# glibc's internal version is no interface: no other glibc has it.
if printf '%s\n' "$headers" | grep -q 'GLIBC_PRIVATE'; then
  fail "$binary references GLIBC_PRIVATE, which only the glibc it was linked against has"
fi
for version in "${versions[@]}"; do
  [ "$(printf '%s\n%s\n' "$version" "$max" | sort -V | tail -1)" = "$max" ] || newer+=("$version")
done
highest=${versions[${#versions[@]} - 1]}
if [ "${#newer[@]}" -gt 0 ]; then
  {
    echo "check-glibc: $binary needs glibc $highest, newer than $max:"
    symbols=$(objdump -T "$binary")
    for version in "${newer[@]}"; do
      names=$(printf '%s\n' "$symbols" | awk -v v="(GLIBC_$version)" 'index($0, v) { print $NF }' | sort -u | paste -sd ' ')
      echo "  GLIBC_$version: ${names:-(a version reference with no symbol)}"
    done
    echo "build it against glibc $max (packaging/build-wheel.sh: maturin --zig --compatibility manylinux2014),"
    echo "and call a libc function newer than that through libc::syscall"
  } >&2
  exit 1
fi
echo "check-glibc: $binary needs glibc $highest at most (floor $max)"
