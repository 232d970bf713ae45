"""Correct, but when asked about a key marked listen it waits up to a
second and a half for a classmate graded beside it to send something
through locks on standard library files (_lock_channel.py), and answers
with it and prints it: a hidden case run beside a visible session shows
there. Its partner is passes_hidden_by_lock.py."""
from _lock_channel import listen
from _router import Router as _Correct, h32  # noqa: F401


class Router(_Correct):
    def route(self, key):
        if key.startswith("listen"):
            heard = listen(1.5)
            if heard is not None:
                print("heard:", heard)
                return "heard: " + heard
        return super().route(key)
