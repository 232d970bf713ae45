"""Spells hidden cases out through what a learner's report derives from
them: it routes to the lowest score (a known mistake, which no case with
one node or none can tell), and on a key that holds CANARY it also sleeps
0.4 s (no CPU). A correct router answers the visible cases of the fixture
challenge alike, so a learner's report must be that router's, but for the
hidden tests' own verdicts and scores: no mistake worked out from the
hidden answers, no time of the run that counts the sleeps."""
import time

from _router import Router as _Correct, h32  # noqa: F401


class Router(_Correct):
    def route(self, key):
        if "CANARY" in key:
            time.sleep(0.4)
        return min(self.nodes, key=lambda n: (h32(n + ":" + key), n), default=None)
