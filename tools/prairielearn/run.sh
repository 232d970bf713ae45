#!/bin/sh
# PrairieLearn external grader entrypoint: grades /grade/student against
# the course's challenges (in /grade/serverFilesCourse/challenges, or the
# question's /grade/tests/challenges) and writes /grade/results/results.json.
# GRADE_ROOT moves the layout (default /grade), GRADER names the binary.
# See docs/ci-and-instructors.md#prairielearn.
set -eu
exec "${GRADER:-grader}" prairielearn --root "${GRADE_ROOT:-/grade}" "$@"
