#!/usr/bin/env bash
# Checks the dev container template (.devcontainer/devcontainer.json
# beside this script) as far as a machine without Docker can: its JSON is
# strict JSON (no comments, no trailing commas) with an image that has
# python3, the Node feature, and the remote user's PATH; then, in a scratch
# workspace laid out as a course's (the template and WHEEL in
# .devcontainer/), it runs the postCreateCommand as written with a home of
# its own standing for the remote user's, and, with the PATH remoteEnv
# gives, `grader init` and `grader grade` of the starter (exit 1).
#
# Usage: tools/devcontainer/check.sh WHEEL  (packaging/check-wheel.sh runs
# it with the wheel it checks). Needs python3 with venv.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
wheel=$(cd "$(dirname "${1:?usage: tools/devcontainer/check.sh WHEEL}")" && pwd)/$(basename "$1")
fail() {
  echo "check-devcontainer: $*" >&2
  exit 1
}
template=$here/.devcontainer/devcontainer.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
# The fields the scratch run needs, one a line: the remote user, the
# command, PATH.
python3 - "$template" >"$tmp/fields" <<'PY' || fail "$template is not the template it should be"
import json
import sys

with open(sys.argv[1], encoding="utf-8") as f:
    config = json.load(f)
assert "python" in config["image"], config["image"]
assert any("/features/node:" in name for name in config["features"]), config["features"]
user = config["remoteUser"]
command = config["postCreateCommand"]
path = config["remoteEnv"]["PATH"]
assert isinstance(command, str) and "\n" not in command, command
assert path.endswith(":${containerEnv:PATH}"), path
print(user)
print(command)
print(path)
PY
mapfile -t fields <"$tmp/fields"
user=${fields[0]}
command=${fields[1]}
path=${fields[2]}

mkdir -p "$tmp/workspace/.devcontainer" "$tmp/home"
cp "$template" "$wheel" "$tmp/workspace/.devcontainer/"
# The remote user's home is this scratch home; the container's PATH is ours.
path=${path//\/home\/$user/$tmp/home}
path=${path//\$\{containerEnv:PATH\}/$PATH}
case "$path" in *'${'*) fail "remoteEnv's PATH has a variable this check does not know: $path" ;; esac
in_container() {
  (cd "$tmp/workspace" && env -u GRADER_CHALLENGES -u XDG_CACHE_HOME -u VIRTUAL_ENV -u PIP_FIND_LINKS \
    HOME="$tmp/home" PATH="$path" "$@")
}
in_container sh -c "$command" || fail "the postCreateCommand failed: $command"
[ "$(in_container sh -c 'command -v grader')" = "$tmp/home/.grader/bin/grader" ] ||
  fail "remoteEnv's PATH does not find the grader the postCreateCommand installed"
in_container python3 --version >/dev/null || fail "no python3"
in_container grader init --lang python >/dev/null || fail "grader init failed"
code=0
in_container grader grade router.py >"$tmp/starter.txt" 2>&1 || code=$?
[ "$code" = 1 ] || { cat "$tmp/starter.txt" >&2; fail "grading the starter exited $code, not 1"; }
echo "check-devcontainer: the template's JSON is strict and its postCreateCommand installs a grader that grades"
