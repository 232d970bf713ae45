"""hrw-top whose count check takes 0 for no count: top(key, 0) returns the
whole ranking instead of []."""


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
        self.nodes = set(nodes)

    def top(self, key, n):
        ranked = sorted(self.nodes, key=lambda node: (-h32(key + "|" + node), node))
        # Wrong: 0 is taken for "no count", so top(key, 0) is every node.
        return ranked[:n] if n else ranked

    def route(self, key):
        best = self.top(key, 1)
        return best[0] if best else None

    def add(self, node):
        self.nodes.add(node)

    def remove(self, node):
        self.nodes.discard(node)
