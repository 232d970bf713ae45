"""Correct, but prints debugging output on every call, to stdout and stderr.
The grader must capture it without confusing it with answers."""

import sys

from correct_class import Router as _Quiet, h32  # noqa: F401  (a sibling module)

print("loading chatty router")  # at import time


class Router(_Quiet):
    def route(self, key):
        answer = super().route(key)
        print(f"route({key!r}) -> {answer!r}")
        print('{"id": 1, "output": []}')  # looks like the protocol; must not matter
        print("debug: routing", key, file=sys.stderr)
        return answer
