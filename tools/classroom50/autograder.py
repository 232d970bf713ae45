#!/usr/bin/env python3
"""Classroom 50 autograder: grades the student's checkout with rendezvous-grader.

Put this file at <classroom>/autograders/<slug>/autograder.py in the
classroom's config repository (or at <classroom>/autograder.py for every
assignment), beside a challenges/ folder if the course has its own
challenges. Classroom 50's runner runs it with the student's checkout as
the working folder; `grader classroom50` writes ./result.json
(classroom50/result/v1) and ./release-body.md, and prints the learner's
report to the job's log. See docs/ci-and-instructors.md#classroom-50.

Nothing here is secret: the bundle is served by the classroom's Pages and
runs in the student's own repository. Grade hidden groups instructor-side
(`grader grade DIR --results ...` over the downloaded repositories).
"""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

# The course sets these. GRADER_WHEEL is the grader's wheel: a URL, or a
# path relative to this file's folder (ship the wheel in the bundle).
GRADER_WHEEL = "https://example.edu/cs101/rendezvous_grader-0.1.0-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"
CHALLENGE = "rendezvous-router"
# Extra options of `grader classroom50`, e.g. ["--require-sandbox"] to grade
# only with every layer of the sandbox in force (a student's code could
# otherwise touch the result files).
OPTIONS = []

HERE = Path(__file__).resolve().parent
BUNDLE = Path(os.environ.get("CLASSROOM50_BUNDLE_DIR") or HERE)


def fail(message):
    """Ends as the runner's infrastructure error: no score for the student."""
    print(f"::error::Not graded: {message}. This is not your code's fault; tell your instructor.")
    sys.exit(1)


def install():
    """Installs the wheel in a fresh virtual environment; returns the binary."""
    wheel = GRADER_WHEEL
    if "://" not in wheel:
        wheel = str(BUNDLE / wheel)
    base = os.environ.get("RUNNER_TEMP") or None
    venv = Path(tempfile.mkdtemp(prefix="grader-", dir=base))
    steps = [
        [sys.executable, "-m", "venv", str(venv)],
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
         "--disable-pip-version-check", wheel],
    ]
    for step in steps:
        if subprocess.run(step, check=False).returncode != 0:
            fail(f"could not install the grader ({' '.join(step)})")
    return str(venv / "bin" / "grader")


def main():
    grader = install()
    command = [grader]
    challenges = BUNDLE / "challenges"
    if challenges.is_dir():
        command += ["--challenges", str(challenges)]
    command += ["classroom50", "--challenge", CHALLENGE, *OPTIONS]
    # Exit 0 when the student was graded, whatever the grade; otherwise
    # the grader's own exit code, which the runner records as an error.
    try:
        sys.exit(subprocess.run(command, check=False).returncode)
    except OSError as e:
        fail(f"could not run the grader ({e})")


if __name__ == "__main__":
    main()
