"""Tries to make namespaces of its own (a user namespace would give it
capabilities over whatever it made inside), and checks that running a
program and forking still work. Correct otherwise, so what it got shows
as its wrong answer."""
import ctypes
import os
import subprocess

from _router import Router as _Correct, h32  # noqa: F401

libc = ctypes.CDLL(None, use_errno=True)
FLAGS = [("user", 0x10000000), ("mount", 0x00020000), ("network", 0x40000000), ("pid", 0x20000000)]

MADE, REFUSED = [], []
for name, flag in FLAGS:
    (MADE if libc.unshare(flag) == 0 else REFUSED).append(name)

spawned = subprocess.run(["/bin/sh", "-c", "echo ran"], capture_output=True, text=True).stdout.strip()
child = os.fork()
if child == 0:
    os._exit(7)
forked = os.waitpid(child, 0)[1] >> 8


class Router(_Correct):
    def route(self, key):
        if MADE:
            return "made: " + ", ".join(MADE)
        return f"refused: {', '.join(REFUSED)}; a program {spawned}, a fork exited {forked}"
