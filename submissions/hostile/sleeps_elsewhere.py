"""Correct in the graded run (hash seed 0). Under any other seed it sleeps
for a minute on every key marked slow-elsewhere: a replay under another
seed must not wait for it past the budget of extra runs, and must change
no verdict."""
import os
import time

from _router import Router as _Correct, h32  # noqa: F401

OTHER_SEED = os.environ.get("PYTHONHASHSEED", "0") != "0"


class Router(_Correct):
    def route(self, key):
        if OTHER_SEED and key.startswith("slow-elsewhere"):
            time.sleep(60)
        return super().route(key)
