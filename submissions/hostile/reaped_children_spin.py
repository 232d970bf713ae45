"""Hides its CPU time in children the kernel reaps itself: with SIGCHLD
ignored, a child that ends is never a zombie, and its CPU time is added to
no parent's, so sampling the process tree misses it. Each route spends a
second of CPU in two such children, then answers right: a case of a few
routes uses well past its 1500 ms limit, which only the kernel's account
of the session (its cgroup) sees."""

import os
import signal
import time

from _router import Router as _R

signal.signal(signal.SIGCHLD, signal.SIG_IGN)


def burn(seconds):
    start = time.process_time()
    while time.process_time() - start < seconds:
        pass


class Router(_R):
    def route(self, key):
        done_r, done_w = os.pipe()
        for _ in range(2):
            if os.fork() == 0:
                os.close(done_r)
                burn(0.5)
                os._exit(0)
        os.close(done_w)
        # Every child holds the write end: end of file once both are gone.
        os.read(done_r, 1)
        os.close(done_r)
        return super().route(key)
