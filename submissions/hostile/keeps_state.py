"""Tries to leave state for a later session or run, and to find what an
earlier one left: a System V shared memory segment, a POSIX message queue,
a key in the uid's keyring, files in /tmp and /dev/shm. Everything it made
must be gone with its session (the test looks on the host afterwards), and
nothing from before may be found. Correct otherwise, so what it saw shows
as its wrong answer."""
import ctypes
import os
import platform

from _router import Router as _Correct, h32  # noqa: F401

KEY = 0x52470001  # the segment's System V key
NAME = b"rendezvous-grader-hostile-key"
CANARY = b"CANARY-KEPT-STATE"
FILES = ["/tmp/rendezvous-grader-hostile-canary", "/dev/shm/rendezvous-grader-hostile-canary"]
ADD_KEY, REQUEST_KEY = {"x86_64": (248, 249), "aarch64": (217, 218)}[platform.machine()]
USER_KEYRING = -4

libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.syscall.restype = ctypes.c_long

FOUND = []
MADE = []

# An earlier session's segment would still be there without an IPC namespace.
if libc.shmget(KEY, 0, 0) >= 0:
    FOUND.append("a shared memory segment")
segment = libc.shmget(KEY, 4096, 0o1000 | 0o666)  # IPC_CREAT
if segment >= 0:
    address = libc.shmat(segment, None, 0)
    ctypes.memmove(address, CANARY, len(CANARY))
    MADE.append("segment")

queue = libc.mq_open(b"/rendezvous-grader-hostile", os.O_CREAT | os.O_RDWR, 0o666, None)
if queue >= 0:
    MADE.append("queue")
else:
    MADE.append("no queue (" + os.strerror(ctypes.get_errno()) + ")")

if libc.syscall(REQUEST_KEY, b"user", NAME, None, 0) >= 0:
    FOUND.append("a key")
key = libc.syscall(ADD_KEY, b"user", NAME, CANARY, len(CANARY), USER_KEYRING)
if key >= 0:
    MADE.append("KEY")
else:
    MADE.append("no key (" + os.strerror(ctypes.get_errno()) + ")")

for path in FILES:
    if os.path.exists(path):
        FOUND.append(path)
    try:
        with open(path, "wb") as f:
            f.write(CANARY)
        MADE.append(path.split("/")[1])
    except OSError as e:
        MADE.append("no " + path.split("/")[1] + " (" + e.strerror + ")")

try:
    RUN = sorted(os.listdir("/run"))
except OSError:
    RUN = []


class Router(_Correct):
    def route(self, key):
        if FOUND:
            return "found: " + ", ".join(FOUND)
        return "made: " + ", ".join(MADE) + "; /run holds " + str(len(RUN))
