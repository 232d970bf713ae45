"""Wrong: the finalizer stops one step short, without its last
h ^= h >> 16 (copied from a listing cut at the page's end)."""

MASK = 0xFFFFFFFF


def h32(text):
    h = 2166136261
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 16777619) & MASK
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & MASK
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & MASK
    return h


class Router:
    def __init__(self, nodes):
        self.nodes = set(nodes)

    def add(self, node):
        self.nodes.add(node)

    def remove(self, node):
        self.nodes.discard(node)

    def route(self, key):
        best = None
        for n in sorted(self.nodes):
            s = h32(n + ":" + key)
            if best is None or s > best[0]:
                best = (s, n)
        return best[1] if best else None
