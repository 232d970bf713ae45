import sys

from _router import Router as _R


class Router(_R):
    def route(self, key):
        chunk = "x" * 4096
        while True:
            sys.stdout.write(chunk)
            sys.stdout.flush()
