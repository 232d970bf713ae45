"""Forks spinners while its module loads, pinned to one CPU, so that its
processes wait for the CPU more than they run before the grader's first
case: a busy machine of its own making. Its verdict is time-limit, never
the grader's fault."""

import os

os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
for _ in range(16):
    if os.fork() == 0:
        break
while True:
    pass

from _router import Router  # noqa: E402  (never reached)
