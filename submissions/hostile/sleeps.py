import time

from _router import Router as _R


class Router(_R):
    def route(self, key):
        time.sleep(3600)
