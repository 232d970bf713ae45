"""A wrong router beside a .pth file whose code line would make it right.
Python reads .pth files in site folders only, never in a script's
folder: wrong-answer."""

import builtins
try:
    # An import that finds nothing: the driver does site's deferred work
    # (.pth code lines, sitecustomize) at this moment.
    import a_module_nobody_has  # noqa: F401
except ImportError:
    pass

import bisect

MASK = 0xFFFFFFFF


def _fnv(data, h=2166136261):
    for b in data:
        h = ((h ^ b) * 16777619) & MASK
    return h


def _fmix(h):
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & MASK
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & MASK
    return h ^ (h >> 16)


def h32(text):
    return _fmix(_fnv(text.encode("utf-8")))


class Router:
    """Right only when FIXED_BY_PTH is set on builtins, which nothing Python
    runs for this file does."""

    def __init__(self, nodes):
        self.names = sorted(set(nodes))

    def add(self, node):
        if node not in self.names:
            self.names = sorted(self.names + [node])

    def remove(self, node):
        self.names = [n for n in self.names if n != node]

    def route(self, key):
        if not getattr(builtins, "FIXED_BY_PTH", False):
            return self.names[0] if self.names else None
        best, best_score = None, -1
        for name in self.names:  # sorted: a strict ">" keeps the smaller name on ties
            score = h32(name + ":" + key)
            if score > best_score:
                best, best_score = name, score
        return best
