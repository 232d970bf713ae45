"""Holds 1 GiB of shared anonymous memory (MAP_SHARED | MAP_ANONYMOUS),
which RLIMIT_DATA does not count: the session's memory must."""

import mmap
import time

from _router import Router as _R

held = []


class Router(_R):
    def route(self, key):
        shared = mmap.mmap(-1, 1 << 30)
        for i in range(0, len(shared), 4096):
            shared[i] = 1
        held.append(shared)
        while True:
            time.sleep(1)
