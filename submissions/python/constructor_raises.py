"""A correct router except that its constructor refuses fewer than two
nodes. The tests it fails gave no answers at all, so no mistake can be said
to reproduce them, and the grader names none."""

MASK = 0xFFFFFFFF


def h32(text):
    h = 2166136261
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 16777619) & MASK
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & MASK
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & MASK
    return h ^ (h >> 16)


class Router:
    def __init__(self, nodes):
        if len(set(nodes)) < 2:
            raise ValueError("a router needs at least two nodes")
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
