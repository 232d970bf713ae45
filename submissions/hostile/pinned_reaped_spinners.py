"""Makes its own processes wait for a CPU, to look like a starved
machine: pinned to one CPU, with eight spinning children the kernel reaps
(SIGCHLD ignored) beside a spinning parent, every process waits far
longer than it runs. The wait is its own doing, and the machine is not
busy: its verdict is time-limit, never the grader's fault."""

import os
import signal

from _router import Router as _R

signal.signal(signal.SIGCHLD, signal.SIG_IGN)


class Router(_R):
    def route(self, key):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
        for _ in range(8):
            if os.fork() == 0:
                while True:
                    pass
        while True:
            pass
