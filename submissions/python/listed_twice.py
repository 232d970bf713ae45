"""A router that keeps the constructor's list as it is, duplicates and
all, though add skips a node already there: a node listed twice stays
after one removal."""


def h32(text):
    h = 2166136261
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & 0xFFFFFFFF
    h ^= h >> 16
    return h


class Router:
    def __init__(self, nodes):
        self.nodes = list(nodes)

    def route(self, key):
        best = None
        for n in self.nodes:
            s = h32(n + ":" + key)
            if best is None or s > best[0] or (s == best[0] and n < best[1]):
                best = (s, n)
        return best[1] if best else None

    def add(self, node):
        if node not in self.nodes:
            self.nodes.append(node)

    def remove(self, node):
        if node in self.nodes:
            self.nodes.remove(node)
