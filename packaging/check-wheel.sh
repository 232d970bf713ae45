#!/usr/bin/env bash
# Builds the Python wheel (packaging/build-wheel.sh: manylinux2014, the
# grader binary alone), checks the binary it installs needs no glibc newer
# than 2.17, installs it into a fresh virtual environment, and grades
# there with no checkout beside it and the sandbox fully on
# (`--require-sandbox`, every layer in the report): in an empty temporary
# folder, with a home of its own and no $GRADER_CHALLENGES, `grader init
# --lang python` writes the starter, `grader grade router.py` gives the
# starter's failing verdict (exit 1) and a correct example passes (exit
# 0), all from the challenges built into the binary.
#
# Usage: packaging/check-wheel.sh [WHEEL]  (from anywhere; builds the wheel
# into target/wheels when none is given). Needs python3 with venv
# (Debian: python3-venv) and objdump (binutils).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

wheel=${1:-}
if [ -z "$wheel" ]; then
  wheel=$(packaging/build-wheel.sh)
fi
echo "checking $wheel"
# pip on an older system installs only a wheel whose tag it accepts.
case "$(basename "$wheel")" in
  *-manylinux2014_*.whl | *.manylinux_2_17_*.whl | *-manylinux_2_17_*.whl) ;;
  *) echo "check-wheel: $wheel is not tagged manylinux2014 (manylinux_2_17): build it with packaging/build-wheel.sh" >&2; exit 1 ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The sandbox's uid reaches the environment's python through here.
chmod 755 "$tmp"
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/pip" install --quiet --disable-pip-version-check "$wheel"
mkdir "$tmp/home" "$tmp/work"
cp submissions/python/correct_class.py "$tmp/correct.py"

# As a learner runs it: the environment active, in an empty folder.
alone() {
  (cd "$tmp/work" && env -u GRADER_CHALLENGES -u XDG_CACHE_HOME HOME="$tmp/home" \
    PATH="$tmp/venv/bin:$PATH" VIRTUAL_ENV="$tmp/venv" "$@")
}
fail() {
  echo "check-wheel: $*" >&2
  exit 1
}

[ "$(alone sh -c "command -v grader")" = "$tmp/venv/bin/grader" ] || fail "grader is not on the environment's PATH"
packaging/check-glibc.sh "$tmp/venv/bin/grader" 2.17 || fail "the installed grader needs a newer glibc than manylinux2014 allows"
alone grader --version
alone grader init --lang python >/dev/null || fail "grader init --lang python failed"
cmp "$tmp/work/router.py" challenges/rendezvous-router/starters/router.py ||
  fail "init wrote something else than the starter"

code=0
alone grader grade --require-sandbox --format json --output "$tmp/starter.json" router.py || code=$?
[ "$code" = 1 ] || fail "grading the starter exited $code, not 1"
python3 - "$tmp/starter.json" "$tmp/home" <<'PY' || fail "the starter's report is not what it should be"
import json
import os
import sys

report = json.load(open(sys.argv[1], encoding="utf-8"))
home = sys.argv[2]
sandbox = report["sandbox"]
assert sandbox["enabled"] and sandbox["missing"] == [], sandbox
assert sandbox["landlock"] and sandbox["seccomp"], sandbox
assert os.geteuid() != 0 or sandbox["accounting"], sandbox
submission = report["submissions"][0]
assert submission["verdict"] == "wrong-answer", submission["verdict"]
assert submission["passed"] == 0, submission["passed"]
assert submission["h32"]["first_mismatch"] is None, submission["h32"]
challenges = report["challenges"]
assert challenges["source"] == "embedded", challenges
assert challenges["path"].startswith(home + "/.cache/rendezvous-grader/"), challenges
PY

code=0
alone grader grade --require-sandbox ../correct.py >"$tmp/correct.txt" || code=$?
[ "$code" = 0 ] || { cat "$tmp/correct.txt" >&2; fail "grading a correct example exited $code, not 0"; }
alone grader show | cmp - challenges/rendezvous-router/README.md || fail "grader show printed something else"
echo "check-wheel: the installed grader stands alone (starter: exit 1, a correct example: exit 0)"

# The dev container template a course ships for macOS, Windows and
# Codespaces installs this wheel and grades with it.
tools/devcontainer/check.sh "$wheel"
