#!/usr/bin/env bash
# Gradescope's autograder with the real wheel, as Gradescope runs it: the
# zip built by tools/gradescope/make-autograder is unpacked into source/ of
# Gradescope's layout under a scratch root (AUTOGRADER_ROOT), its setup.sh
# installs the wheel with pip (into a virtual environment standing for the
# image's Python) and leaves this machine's adequate Node.js alone, then
# run_autograder, copied to the root, grades uploads in submission/: a
# known mistake's results.json names the mistake and its hint, and a
# correct JavaScript router gets the full score.
#
# Usage: packaging/check-gradescope.sh [WHEEL]  (default: the one wheel in
# target/wheels, as packaging/check-wheel.sh leaves it). Needs python3
# with venv and node.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

wheel=${1:-}
if [ -z "$wheel" ]; then
  shopt -s nullglob
  wheels=(target/wheels/rendezvous_grader-*.whl)
  [ ${#wheels[@]} = 1 ] || {
    echo "check-gradescope: expected one wheel in target/wheels, found ${#wheels[@]}; run packaging/check-wheel.sh first, or name the wheel" >&2
    exit 1
  }
  wheel=${wheels[0]}
fi
echo "checking Gradescope's autograder with $wheel"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The sandbox's uid reaches the environment's python through here.
chmod 755 "$tmp"
fail() {
  echo "check-gradescope: $*" >&2
  exit 1
}

python3 tools/gradescope/make-autograder "$wheel" challenges "$tmp/autograder.zip"
ag=$tmp/autograder
# Unpacked as Gradescope does, modes kept.
python3 - "$tmp/autograder.zip" "$ag/source" <<'PY'
import os, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
for i in z.infolist():
    os.chmod(z.extract(i, sys.argv[2]), i.external_attr >> 16 & 0o777)
PY

# The image's Python: a virtual environment first on PATH.
python3 -m venv "$tmp/venv"
image() {
  (cd "$ag" && env -u GRADER_CHALLENGES -u XDG_CACHE_HOME HOME="$tmp/home" \
    PATH="$tmp/venv/bin:$PATH" VIRTUAL_ENV="$tmp/venv" AUTOGRADER_ROOT="$ag" \
    NODE_PREFIX="$tmp/node" NODE_DIST=file:///nonexistent "$@")
}
mkdir "$tmp/home"
image bash "$ag/source/setup.sh" || fail "setup.sh failed"
[ "$(image sh -c 'command -v grader')" = "$tmp/venv/bin/grader" ] || fail "setup.sh put no grader on the image's PATH"
[ ! -e "$tmp/node" ] || fail "setup.sh installed a Node.js over an adequate one"
cp "$ag/source/run_autograder" "$ag/run_autograder"

# One upload: `file` as `name` in submission/, graded; its results.json.
grade_upload() {
  rm -rf "$ag/submission" "$ag/results"
  mkdir -p "$ag/submission"
  cp "$1" "$ag/submission/$2"
  image "$ag/run_autograder" || fail "run_autograder exited $? on $1"
  cp "$ag/results/results.json" "$3"
}
grade_upload submissions/python/lowest_score.py router.py "$tmp/lowest.json"
image grader grade --audience learner --format json --output "$tmp/lowest-report.json" \
  "$ag/submission/router.py" || true
grade_upload submissions/javascript/correct.mjs router.mjs "$tmp/correct.json"

python3 - "$tmp/lowest.json" "$tmp/lowest-report.json" "$tmp/correct.json" <<'PY' || fail "results.json is not what it should be"
import json
import sys

results = json.load(open(sys.argv[1], encoding="utf-8"))
report = json.load(open(sys.argv[2], encoding="utf-8"))["submissions"][0]
mistake = report["mistake"]
assert mistake["id"] == "lowest-score", mistake
output = results["output"]
for said in (mistake["title"], mistake["hint"]):
    assert said in output, (said, output)
for line in report["reproducer"]["snippet"].splitlines():
    assert line in output, (line, output)
assert results["score"] == report["score"], (results["score"], report["score"])
assert results["output_format"] == "text", results["output_format"]

correct = json.load(open(sys.argv[3], encoding="utf-8"))
assert correct["score"] == correct["max_score"] > 0, (correct["score"], correct["max_score"])
assert all(t["status"] == "passed" for t in correct["tests"]), correct["tests"]
PY
echo "check-gradescope: the zip sets itself up in Gradescope's layout; a known mistake's results name it and its hint, a correct JavaScript router scores full"
