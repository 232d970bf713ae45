"""Spells a hidden case out through its time: every route of a key that
holds CANARY sleeps in proportion to the key's last character, a sleep
that costs no CPU, and answers right. A learner's report that showed a
hidden test's time would show the character."""
import time

from _router import Router as _Correct, h32  # noqa: F401


class Router(_Correct):
    def route(self, key):
        if "CANARY" in key:
            time.sleep(ord(key[-1]) / 200)
        elif key.startswith("slow-elsewhere"):
            # A visible case that takes a known time, so that a report
            # keeping visible times shows one whatever the machine's speed.
            time.sleep(0.03)
        return super().route(key)
