"""hrw-top by modulo: the key picks a starting node by h32(key) % count and
the replicas follow in name order. Not consistent hashing: one node leaving
shifts the start for most keys, and no known mistake explains it; the
grader shows the property it breaks."""


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
        ordered = sorted(self.nodes)
        if not ordered:
            return []
        start = h32(key) % len(ordered)
        ranked = ordered[start:] + ordered[:start]
        return ranked[:n]

    def route(self, key):
        best = self.top(key, 1)
        return best[0] if best else None

    def add(self, node):
        self.nodes.add(node)

    def remove(self, node):
        self.nodes.discard(node)
