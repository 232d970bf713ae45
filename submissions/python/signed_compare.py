"""Wrong: keeps each score as a C int32 (ctypes), so a score at or above
2^31 turns negative and loses to any smaller one."""

import ctypes


def h32(text):
    h = 2166136261
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & 0xFFFFFFFF
    return h ^ (h >> 16)


class Router:
    def __init__(self, nodes):
        self.nodes = set(nodes)

    def add(self, node):
        self.nodes.add(node)

    def remove(self, node):
        self.nodes.discard(node)

    def route(self, key):
        def score(n):
            return ctypes.c_int32(h32(f"{n}:{key}")).value

        return max(sorted(self.nodes), key=score, default=None)
