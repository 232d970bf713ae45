#!/usr/bin/env bash
# Makes sure `node` is one the grader's drivers accept (Node.js 14 or
# newer) on an image being built: an adequate one on PATH is left alone;
# else Node.js $version, nodejs.org's official tarball, is downloaded,
# checked against the SHA-256 pinned here (from nodejs.org's
# SHASUMS256.txt), and only then unpacked into the prefix. A tarball that
# does not match is refused, and nothing is installed. Used by Gradescope's
# setup.sh and PrairieLearn's Dockerfile (tools/gradescope,
# tools/prairielearn); needs curl (or wget), tar, xz and sha256sum.
# With --check, it only says whether the node on PATH is adequate (exit 0)
# or not (exit 1).
#
#   NODE_PREFIX  where Node.js goes: PREFIX/bin/node (default /usr/local)
#   NODE_DIST    where the tarballs are (default https://nodejs.org/dist)
set -euo pipefail

minimum=14
version=22.22.2
case "$(uname -m)" in
  x86_64 | amd64)
    arch=x64
    sha256=88fd1ce767091fd8d4a99fdb2356e98c819f93f3b1f8663853a2dee9b438068a
    ;;
  aarch64 | arm64)
    arch=arm64
    sha256=e9e1930fd321a470e29bb68f30318bf58e3ecb4acb4f1533fb19c58328a091fe
    ;;
  *)
    echo "install-node: no Node.js tarball is pinned for $(uname -m); install Node.js $minimum or newer on PATH, and run this again" >&2
    exit 1
    ;;
esac

# The major version of a node, or 0 when it does not answer.
major() {
  local v
  v=$("$1" --version 2>/dev/null || true)
  v=${v#v}
  v=${v%%.*}
  case "$v" in
    '' | *[!0-9]*) echo 0 ;;
    *) echo "$v" ;;
  esac
}

if command -v node >/dev/null 2>&1; then
  have=$(major node)
  if [ "$have" -ge "$minimum" ]; then
    echo "install-node: $(command -v node) is Node.js $have, new enough; left alone"
    exit 0
  fi
  [ "${1:-}" = --check ] && exit 1
  echo "install-node: $(command -v node) is Node.js $have, older than $minimum; installing $version"
else
  [ "${1:-}" = --check ] && exit 1
  echo "install-node: no node on PATH; installing $version"
fi

prefix=${NODE_PREFIX:-/usr/local}
dist=${NODE_DIST:-https://nodejs.org/dist}
name=node-v$version-linux-$arch
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
url=$dist/v$version/$name.tar.xz
if command -v curl >/dev/null 2>&1; then
  curl -fsSL --retry 3 -o "$tmp/$name.tar.xz" "$url"
elif command -v wget >/dev/null 2>&1; then
  wget -q -O "$tmp/$name.tar.xz" "$url"
else
  echo "install-node: neither curl nor wget is installed to fetch $url" >&2
  exit 1
fi
if ! (cd "$tmp" && echo "$sha256  $name.tar.xz" | sha256sum -c --status -); then
  echo "install-node: $url does not have the pinned SHA-256 $sha256; refused, nothing installed" >&2
  exit 1
fi
tar -xJf "$tmp/$name.tar.xz" -C "$tmp" --no-same-owner
mkdir -p "$prefix"
cp -R "$tmp/$name/bin" "$tmp/$name/include" "$tmp/$name/lib" "$tmp/$name/share" "$prefix/"
installed=$(major "$prefix/bin/node")
if [ "$installed" -lt "$minimum" ]; then
  echo "install-node: $prefix/bin/node does not run" >&2
  exit 1
fi
hash -r
found=$(command -v node || true)
if [ "$found" != "$prefix/bin/node" ]; then
  echo "install-node: the node on PATH is ${found:-none}, not $prefix/bin/node: put $prefix/bin first on PATH, or set GRADER_NODE=$prefix/bin/node" >&2
fi
echo "install-node: Node.js $version installed in $prefix"
