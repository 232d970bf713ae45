#!/usr/bin/env python3
"""Codio assessment script: grades the student's work with rendezvous-grader
and sends Codio the partial points and feedback.

Make it an Advanced Code Test's command (`python3 .guides/secure/grade.py`)
with "Allow Partial Points" on. It runs

    grader --challenges CHALLENGES grade --challenge CHALLENGE --audience learner
           --format codio --output BODY --exit-zero SUBMISSION

and POSTs BODY (points=0..100, format=html, feedback=the learner's report)
to $CODIO_PARTIAL_POINTS_V2_URL. It exits 0, as Codio asks of partial
points (any other exit is a grade of 0): a grading that failed sends no
points at all and says so. Only without the URL (partial points off, when
Codio takes an exit of 0 for a pass with full marks) does it exit 1. Only python3's standard library is used. See
docs/ci-and-instructors.md#codio.

Environment, all optional: GRADER (the binary, default `grader`),
REQUIRE_SANDBOX (set to 1: refuse to grade unless every layer of the
sandbox is in force, `--require-sandbox`), CHALLENGE
(default rendezvous-router), CHALLENGES (the course's challenges folder,
default .guides/secure/challenges of the workspace, which must exist; set
it empty, CHALLENGES=, for the grader's built-in ones), SUBMISSION (the student's folder or file, default
the workspace), CODIO_WORKSPACE (default /home/codio/workspace).
"""

import ctypes
import os
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

URL_VARIABLE = "CODIO_PARTIAL_POINTS_V2_URL"
SECONDS_TO_SEND = 30
NOT_GRADED = (
    "Not graded: the autograder could not grade your work. This is not your "
    "code's fault, and no score was sent. Tell your instructor."
)


def keep_url_private():
    """Makes this process's memory, its environment with the URL included,
    unreadable to other processes of its user (PR_SET_DUMPABLE 0): the
    student's code runs as the same user, and without the grader's sandbox
    it could read /proc/PID/environ and send points of its own."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE, SUID_DUMP_DISABLE
    except (OSError, AttributeError):
        pass  # not Linux: nothing in /proc to hide


def say(text):
    print(text, flush=True)


def grade(body):
    """Runs the grader; returns None when BODY holds points, else why not."""
    workspace = os.environ.get("CODIO_WORKSPACE", "/home/codio/workspace")
    challenges = os.environ.get("CHALLENGES")
    if challenges is None:
        # Never the built-in ones for want of this folder: the student's
        # workspace is merged with .guides/secure, so a folder of theirs
        # at that path would be graded against when the course ships none.
        challenges = os.path.join(workspace, ".guides", "secure", "challenges")
        if not os.path.isdir(challenges):
            return (f"{challenges} does not exist: copy the course's challenges "
                    "there, or set CHALLENGES= (empty) to grade with the grader's "
                    "built-in ones")
    command = [os.environ.get("GRADER", "grader")]
    if challenges:
        command += ["--challenges", os.path.abspath(challenges)]
    command += [
        "grade",
        "--challenge", os.environ.get("CHALLENGE", "rendezvous-router"),
        "--audience", "learner",
        "--format", "codio",
        "--output", body,
        "--exit-zero",
    ]
    if os.environ.get("REQUIRE_SANDBOX", "") not in ("", "0"):
        command.append("--require-sandbox")
    command += [
        os.path.abspath(os.environ.get("SUBMISSION", workspace)),
    ]
    # Run from an empty folder, without GRADER_CHALLENGES: challenges are
    # never looked for where the student can write.
    env = {k: v for k, v in os.environ.items() if k != "GRADER_CHALLENGES"}
    env.pop(URL_VARIABLE, None)
    try:
        done = subprocess.run(
            command,
            cwd=os.path.dirname(body),
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            check=False,
        )
    except OSError as e:
        return f"cannot run {command[0]}: {e}"
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip()[-2000:]
        return f"the grader exited {done.returncode}: {said}"
    if not os.path.isfile(body):
        return "the grader wrote no result"
    return None


def send(url, data):
    request = urllib.request.Request(
        url,
        data=data,
        method="POST",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    with urllib.request.urlopen(request, timeout=SECONDS_TO_SEND) as response:
        response.read()


def main():
    keep_url_private()
    with tempfile.TemporaryDirectory(prefix="grader-") as scratch:
        body = os.path.join(scratch, "body")
        why = grade(body)
        if why is not None:
            say(NOT_GRADED)
            say(f"({why})")
            return 0
        with open(body, "rb") as f:
            data = f.read()
    points = next(
        (p[len(b"points="):].decode() for p in data.split(b"&") if p.startswith(b"points=")),
        None,
    )
    url = os.environ.get(URL_VARIABLE)
    if not url:
        # Without partial points, Codio takes an exit of 0 for a pass with
        # full marks: this one is not a pass, whatever was graded.
        say(f"Graded ({points}%), but ${URL_VARIABLE} is not set, so the grade "
            "cannot be sent: turn on Allow Partial Points in the assessment's "
            "Grading settings. (Exit 1, so that Codio does not count this as a "
            "pass.) Tell your instructor.")
        return 1
    try:
        send(url, data)
    except urllib.error.HTTPError as e:
        say(f"Graded ({points}%), but Codio refused the grade: HTTP {e.code} {e.reason}. "
            "Tell your instructor.")
        return 0
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", e)
        say(f"Graded ({points}%), but Codio could not be reached ({reason}). "
            "Tell your instructor.")
        return 0
    say(f"Graded: {points}% sent to Codio.")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as e:  # the student's grade is never the script's crash
        say(NOT_GRADED)
        say(f"({type(e).__name__}: {e})")
        sys.exit(0)
