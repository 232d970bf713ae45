"""Holds 1.5 GiB in memfds it never maps: no process's memory map shows
them, so summing the processes' memory misses them; the kernel's account
of the session (its cgroup) charges every page. Each memfd stays under the
file size limit, a write the kernel refuses is shrugged off, as an
attacker would, and the answers are right."""

import os

from _router import Router as _R

held = []


class Router(_R):
    def route(self, key):
        if not held:
            chunk = b"x" * (8 << 20)
            for _ in range(96):
                try:
                    fd = os.memfd_create("hoard")
                    held.append(fd)
                    os.write(fd, chunk)
                    os.write(fd, chunk)
                except OSError:
                    break
        return super().route(key)
