#!/bin/sh
# PrairieLearn external grader entrypoint: grades /grade/student against
# the course's challenges (in /grade/serverFilesCourse/challenges, or the
# question's /grade/tests/challenges) and writes /grade/results/results.json.
# GRADE_ROOT moves the layout (default /grade), GRADER names the binary.
# See docs/ci-and-instructors.md#prairielearn.
set -eu
# 1: grade only with every layer of the sandbox in force (where one is
# missing, every job is not gradable, saying why, and no attempt is
# charged). The hidden tests stay unreadable to a student's code while
# the Landlock layer is in force; results.json's output does not show the
# layers, the grader's log does. Set it here: the entrypoint is run
# without arguments or variables of the course's.
REQUIRE_SANDBOX=${REQUIRE_SANDBOX:-0}
require=
if [ "$REQUIRE_SANDBOX" != 0 ]; then
  require=--require-sandbox
fi
# shellcheck disable=SC2086 # $require is one flag or nothing
exec "${GRADER:-grader}" prairielearn --root "${GRADE_ROOT:-/grade}" $require "$@"
