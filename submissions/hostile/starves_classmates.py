"""Starts a hundred spinning processes to take every core from the
classmates graded beside it. Its session's CPU quota (one core, where the
kernel keeps the accounts) leaves them theirs; its own verdict is
time-limit."""

import os

from _router import Router as _R


class Router(_R):
    def route(self, key):
        for _ in range(100):
            try:
                if os.fork() == 0:
                    break
            except OSError:
                break
        while True:
            pass
