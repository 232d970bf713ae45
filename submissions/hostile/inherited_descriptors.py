"""Reads every descriptor it was given beyond stdin, stdout, stderr and the
protocol's three (3, 4, 5): whatever the grader held open must not reach
it. Correct otherwise, so any leak shows as a wrong answer."""
import os

from _router import Router as _Correct, h32  # noqa: F401

LEAKED = []
for name in os.listdir("/proc/self/fd"):
    fd = int(name)
    if fd <= 5:
        continue
    try:
        os.lseek(fd, 0, 0)
        LEAKED.append(os.read(fd, 200).decode("utf-8", "replace"))
    except OSError:
        # The folder listing's own descriptor, closed by now.
        pass


class Router(_Correct):
    def route(self, key):
        if LEAKED:
            return "leaked: " + " | ".join(LEAKED)
        return super().route(key)
