#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder's
# image (Ubuntu 22.04 by default), with the autograder's zip unpacked in
# $root/source: it installs the grader from the course's wheel shipped
# there, python3 with pip when the image has none, and a Node.js the
# drivers accept (14 or newer: Ubuntu 22.04's own is 12) when the image's
# is missing or older. What is already adequate is left alone. Made into
# the zip by tools/gradescope/make-autograder.
#
#   AUTOGRADER_ROOT  the layout's root (default /autograder)
#   PIP              the command that installs the wheel (default:
#                    python3 -m pip install --no-index)
set -euo pipefail
root="${AUTOGRADER_ROOT:-/autograder}"
source="$root/source"

fail() {
  echo "setup.sh: $*" >&2
  exit 1
}
updated=
apt_install() {
  command -v apt-get >/dev/null 2>&1 || fail "$* missing, and no apt-get to install it with: use an Ubuntu base image"
  if [ -z "$updated" ]; then
    apt-get update -qq
    updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

shopt -s nullglob
wheels=("$source"/rendezvous_grader-*.whl)
[ ${#wheels[@]} = 1 ] ||
  fail "expected one rendezvous_grader-*.whl in $source, found ${#wheels[@]}; build the zip with tools/gradescope/make-autograder"

# Python submissions run with python3, and pip installs the wheel.
command -v python3 >/dev/null 2>&1 || apt_install python3 python3-pip
if [ -z "${PIP:-}" ]; then
  python3 -m pip --version >/dev/null 2>&1 || apt_install python3-pip
  PIP="python3 -m pip install --no-index --disable-pip-version-check"
  # A distribution's Python that refuses pip outside a virtual
  # environment (PEP 668; Ubuntu 24.04's): the wheel brings the grader's
  # binary alone, nothing the distribution's packages import.
  managed=$(python3 -c 'import os, sys, sysconfig; print(sys.prefix == sys.base_prefix and os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))')
  if [ "$managed" = True ]; then
    PIP="$PIP --break-system-packages"
  fi
fi
# (PIP is a command and its arguments, split on spaces.)
$PIP "${wheels[0]}"
hash -r
command -v grader >/dev/null 2>&1 || fail "installing ${wheels[0]} put no grader on PATH ($PATH)"
grader --version

# JavaScript and TypeScript submissions run with node.
if ! bash "$source/install-node.sh" --check; then
  if ! command -v curl >/dev/null 2>&1 && ! command -v wget >/dev/null 2>&1; then
    apt_install curl ca-certificates
  fi
  command -v xz >/dev/null 2>&1 || apt_install xz-utils
  bash "$source/install-node.sh"
fi
