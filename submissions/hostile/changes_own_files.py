"""Tries to change its own files: its source, the hints, a new file."""
import os

from _router import Router as _R

here = os.path.dirname(os.path.abspath(__file__))


def vandalise():
    done = []
    for name, mode in [(os.path.abspath(__file__), "a"), (os.path.join(here, "hints.json"), "w"),
                       (os.path.join(here, "planted.py"), "w")]:
        try:
            with open(name, mode) as f:
                f.write("# vandalised\n")
            done.append(os.path.basename(name))
        except OSError:
            pass
    return "CHANGED " + ",".join(done) if done else "blocked"


class Router(_R):
    def route(self, key):
        return vandalise()
