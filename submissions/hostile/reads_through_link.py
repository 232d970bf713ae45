"""Reads the expected outputs through a link beside it (`linked-tests`,
which the test points at the tests folder) and answers with them. In a
working sandbox the link leads nowhere it may read, and it says so."""
import json
import os

from _router import Router as _R

LINK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "linked-tests")


def leak():
    try:
        found = {}
        for name in os.listdir(LINK):
            if name.endswith(".expected.json"):
                with open(os.path.join(LINK, name)) as f:
                    found[name] = json.load(f)
        return found
    except OSError as e:
        return "blocked: " + type(e).__name__


class Router(_R):
    def __init__(self, nodes):
        super().__init__(nodes)
        self.leaked = leak()

    def route(self, key):
        if isinstance(self.leaked, str):
            return self.leaked
        return "LEAKED " + json.dumps(sorted(self.leaked))
