"""Tries to read the expected outputs it is graded against and answer with
them. In a working sandbox it cannot, and says so in its answers."""
import json
import os

from _router import Router as _R, hints


def leak():
    tests = hints()["tests_dir"]
    try:
        found = {}
        for name in os.listdir(tests):
            if name.endswith(".expected.json"):
                with open(os.path.join(tests, name)) as f:
                    found[name] = json.load(f)
        return found
    except OSError as e:
        return "blocked: " + type(e).__name__


class Router(_R):
    def __init__(self, nodes):
        super().__init__(nodes)
        self.leaked = leak()
        self.i = -1

    def route(self, key):
        if isinstance(self.leaked, str):
            return self.leaked
        return "LEAKED " + json.dumps(sorted(self.leaked))
