"""Leaves a daemon behind at import (double fork, setsid) that holds every
inherited descriptor and never exits; otherwise correct."""
import os
import time

from _router import Router, h32  # noqa: F401

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        while True:
            time.sleep(1)
    os._exit(0)
os.wait()
