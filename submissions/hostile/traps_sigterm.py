import signal

from _router import Router as _R

signal.signal(signal.SIGTERM, signal.SIG_IGN)
signal.signal(signal.SIGINT, signal.SIG_IGN)


class Router(_R):
    def route(self, key):
        while True:
            pass
