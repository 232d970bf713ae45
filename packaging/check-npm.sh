#!/usr/bin/env bash
# Packs the grader for npm (packaging/npm/pack.sh: the wheel's binary,
# glibc 2.17 and newer), installs the two
# tarballs into an empty project with `npm install` (offline: nothing is
# fetched from the registry), and grades there as check-wheel.sh does: in
# an empty folder, with a home of its own and no $GRADER_CHALLENGES,
# `npx grader init --lang python`, the starter's failing verdict (exit 1),
# a correct example's pass (exit 0), with the sandbox fully on.
#
# Usage: packaging/check-npm.sh [BINARY]  (BINARY defaults to the wheel's,
# built when missing, as pack.sh says). Needs node, npm and objdump.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
mapfile -t tarballs < <(packaging/npm/pack.sh "${1:-}" "$tmp/packed")
[ "${#tarballs[@]}" = 2 ] || { echo "check-npm: pack.sh made ${tarballs[*]}" >&2; exit 1; }
mkdir "$tmp/project" "$tmp/home" "$tmp/project/work"
echo '{ "name": "course-work", "private": true }' >"$tmp/project/package.json"
(cd "$tmp/project" && HOME="$tmp/home" NPM_CONFIG_UPDATE_NOTIFIER=false npm install --offline --no-audit --no-fund --loglevel=error "${tarballs[@]}")
cp submissions/python/correct_class.py "$tmp/correct.py"

alone() {
  (cd "$tmp/project/work" && env -u GRADER_CHALLENGES -u XDG_CACHE_HOME HOME="$tmp/home" NPM_CONFIG_UPDATE_NOTIFIER=false "$@")
}
fail() {
  echo "check-npm: $*" >&2
  exit 1
}
alone npx --offline grader --version
installed=$tmp/project/node_modules/@rendezvous-grader
packaging/check-glibc.sh "$(echo "$installed"/linux-*/bin/grader)" 2.17 || fail "the installed grader needs a newer glibc than 2.17"
alone npx --offline grader init --lang python >/dev/null || fail "grader init --lang python failed"
cmp "$tmp/project/work/router.py" challenges/rendezvous-router/starters/router.py ||
  fail "init wrote something else than the starter"
code=0
alone npx --offline grader grade --require-sandbox --format json --output "$tmp/starter.json" router.py || code=$?
[ "$code" = 1 ] || fail "grading the starter exited $code, not 1"
python3 - "$tmp/starter.json" <<'PY' || fail "the starter's report is not what it should be"
import json
import os
import sys

report = json.load(open(sys.argv[1], encoding="utf-8"))
sandbox = report["sandbox"]
assert sandbox["enabled"] and sandbox["missing"] == [], sandbox
assert sandbox["landlock"] and sandbox["seccomp"], sandbox
assert os.geteuid() != 0 or sandbox["accounting"], sandbox
submission = report["submissions"][0]
assert submission["verdict"] == "wrong-answer", submission["verdict"]
assert submission["passed"] == 0, submission["passed"]
assert report["challenges"]["source"] == "embedded", report["challenges"]
PY
code=0
alone npx --offline grader grade --require-sandbox ../../correct.py >"$tmp/correct.txt" || code=$?
[ "$code" = 0 ] || { cat "$tmp/correct.txt" >&2; fail "grading a correct example exited $code, not 0"; }
# An exit code other than 0 and 1 comes through the wrapper as it is.
code=0
alone npx --offline grader show nope 2>/dev/null || code=$?
[ "$code" = 2 ] || fail "an unknown challenge exited $code through npx, not 2"
echo "check-npm: the installed grader stands alone (starter: exit 1, a correct example: exit 0)"
