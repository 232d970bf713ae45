"""Tries to read another submission graded in the same run (a classmate's
folder beside its own) and answers with what it found."""
import os

from _router import Router as _R

here = os.path.dirname(os.path.abspath(__file__))


def peek():
    try:
        with open(os.path.join(here, "..", "infinite_loop-py", "infinite_loop.py")) as f:
            return "READ " + f.readline().strip()
    except OSError as e:
        return "blocked: " + type(e).__name__


class Router(_R):
    def route(self, key):
        return peek()
