#!/usr/bin/env bash
# PrairieLearn's external-grading image, as far as this machine can build
# it without Docker: every instruction of tools/prairielearn/Dockerfile is
# taken in turn in a scratch root, the build context assembled as the
# Dockerfile says (the Dockerfile, tools/install-node.sh, the wheel).
# WORKDIR and COPY act in the scratch root, RUN runs there with a virtual
# environment standing for the image's Python (pip installs the wheel into
# it; this machine's adequate Node.js is left alone); FROM, and RUN steps
# that install Debian packages (apt-get: the image's root and network),
# are named and not run. Then tools/prairielearn/info.json's entrypoint
# grades a known mistake in PrairieLearn's /grade layout under the scratch
# root (GRADE_ROOT): results.json names the mistake and its hint.
#
# Usage: packaging/check-prairielearn.sh [WHEEL]  (default: the one wheel
# in target/wheels, as packaging/check-wheel.sh leaves it). Needs python3
# with venv and node.
set -euo pipefail
cd "$(dirname "$0")/.."

wheel=${1:-}
if [ -z "$wheel" ]; then
  shopt -s nullglob
  wheels=(target/wheels/rendezvous_grader-*.whl)
  [ ${#wheels[@]} = 1 ] || {
    echo "check-prairielearn: expected one wheel in target/wheels, found ${#wheels[@]}; run packaging/check-wheel.sh first, or name the wheel" >&2
    exit 1
  }
  wheel=${wheels[0]}
fi
echo "checking PrairieLearn's image steps with $wheel"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The sandbox's uid reaches the environment's python through here.
chmod 755 "$tmp"
mkdir "$tmp/context" "$tmp/root" "$tmp/home"
cp tools/prairielearn/Dockerfile tools/install-node.sh "$wheel" "$tmp/context/"
python3 -m venv "$tmp/venv"

env -u GRADER_CHALLENGES -u XDG_CACHE_HOME HOME="$tmp/home" \
  PATH="$tmp/venv/bin:$PATH" VIRTUAL_ENV="$tmp/venv" \
  NODE_PREFIX="$tmp/root/usr/local" NODE_DIST=file:///nonexistent \
  python3 - "$tmp/context" "$tmp/root" tools/prairielearn/info.json challenges tools/prairielearn/run.sh \
  submissions/python/lowest_score.py <<'PY'
import glob
import json
import os
import shlex
import shutil
import subprocess
import sys

context, root, info, challenges, run_sh, lowest = sys.argv[1:]


def fail(message):
    sys.exit(f"check-prairielearn: {message}")


def inside(path, cwd):
    """An image path under the scratch root."""
    path = path if path.startswith("/") else os.path.join(cwd, path)
    return os.path.join(root, path.lstrip("/"))


# Instructions, continuation lines joined, comments left out.
lines, current = [], ""
for raw in open(os.path.join(context, "Dockerfile"), encoding="utf-8"):
    line = raw.rstrip("\n")
    if not current and (not line.strip() or line.lstrip().startswith("#")):
        continue
    if line.endswith("\\"):
        current += line[:-1] + " "
        continue
    lines.append(current + line)
    current = ""

cwd = "/"
seen = set()
for line in lines:
    word, _, rest = line.strip().partition(" ")
    word = word.upper()
    seen.add(word)
    if word == "FROM":
        print(f"not run here: FROM {rest}")
    elif word == "WORKDIR":
        cwd = rest if rest.startswith("/") else os.path.join(cwd, rest)
        os.makedirs(inside(cwd, "/"), exist_ok=True)
    elif word == "COPY":
        *sources, dest = shlex.split(rest)
        target = inside(dest, cwd)
        for source in sources:
            found = glob.glob(os.path.join(context, source))
            if not found:
                fail(f"COPY {source}: nothing in the build context matches it")
            for path in found:
                to = os.path.join(target, os.path.basename(path)) if dest.endswith("/") else target
                shutil.copy(path, to)
    elif word == "RUN":
        if rest.startswith("apt-get"):
            print(f"not run here (Debian packages, the image's root): RUN {rest}")
            continue
        print(f"RUN {rest}", flush=True)
        done = subprocess.run(["bash", "-ec", rest], cwd=inside(cwd, "/"))
        if done.returncode != 0:
            fail(f"RUN {rest}: exit {done.returncode}")
    else:
        fail(f"{word} is an instruction this check does not know; teach it")
for needed in ("FROM", "RUN", "COPY"):
    if needed not in seen:
        fail(f"the Dockerfile has no {needed}")

grader = shutil.which("grader")
if grader != os.path.join(os.environ["VIRTUAL_ENV"], "bin", "grader"):
    fail(f"the steps put no grader in the image's Python (found {grader})")
if os.path.exists(os.path.join(root, "usr/local/bin/node")):
    fail("install-node.sh installed a Node.js over an adequate one")
if glob.glob(inside("rendezvous_grader-*.whl", "/build")):
    fail("the wheel is left in the image")

# A question that uses the image, in /grade's layout.
options = json.load(open(info, encoding="utf-8"))["externalGradingOptions"]
grade = os.path.join(root, "grade")
files = os.path.join(grade, "serverFilesCourse")
for name in options["serverFilesCourse"]:
    name = name.rstrip("/")
    if name == "challenges":
        shutil.copytree(challenges, os.path.join(files, name))
    elif name == "run.sh":
        os.makedirs(files, exist_ok=True)
        shutil.copy(run_sh, os.path.join(files, name))
    else:
        fail(f"info.json copies serverFilesCourse/{name}, which the course does not have")
os.makedirs(os.path.join(grade, "student"))
shutil.copy(lowest, os.path.join(grade, "student", "router.py"))
entrypoint = options["entrypoint"]
command = shlex.split(entrypoint) if isinstance(entrypoint, str) else entrypoint
if not command[0].startswith("/grade/"):
    fail(f"the entrypoint {command[0]} is not in /grade")
command[0] = os.path.join(root, command[0].lstrip("/"))
if not os.path.isfile(command[0]):
    fail(f"the entrypoint {entrypoint} is not among the files info.json copies")
os.chmod(command[0], 0o755)  # As PrairieLearn does.
env = dict(os.environ, GRADE_ROOT=grade)
done = subprocess.run(command, cwd=grade, env=env, timeout=options["timeout"])
if done.returncode != 0:
    fail(f"the entrypoint exited {done.returncode}")
results = json.load(open(os.path.join(grade, "results", "results.json"), encoding="utf-8"))
report = json.loads(
    subprocess.run(
        ["grader", "grade", "--audience", "learner", "--format", "json",
         os.path.join(grade, "student", "router.py")],
        capture_output=True,
        check=False,
    ).stdout
)["submissions"][0]
mistake = report["mistake"]
assert mistake["id"] == "lowest-score", mistake
assert results["gradable"] is True, results
for said in (mistake["title"], mistake["hint"]):
    assert said in results["output"], (said, results["output"])
print("check-prairielearn: the image's steps install the grader; info.json's entrypoint grades /grade and names the mistake and its hint")
PY
