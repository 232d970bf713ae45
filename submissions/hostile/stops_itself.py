import os
import signal

from _router import Router as _R


class Router(_R):
    def route(self, key):
        os.kill(os.getpid(), signal.SIGSTOP)
        return None
