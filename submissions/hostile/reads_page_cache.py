"""Correct, but when asked about a key marked listen it reads what an
earlier session marked in the page cache of standard library files
(_page_cache_channel.py), and answers with it and prints it: a hidden
case of an earlier run would show there. Its partner is
marks_page_cache.py."""
from _page_cache_channel import receive
from _router import Router as _Correct, h32  # noqa: F401


class Router(_Correct):
    def route(self, key):
        if key.startswith("listen"):
            heard = receive()
            if heard is not None:
                print("heard:", heard)
                return "heard: " + heard
        return super().route(key)
