"""vnode-ring whose add places a node's points whether or not it is there.

Wrong: adding a present node (or listing it twice) puts its k points on
the ring again, so points() counts them twice.
"""

import bisect


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
    def __init__(self, nodes, k):
        self.k = k
        self.nodes = set()
        self.ring = []
        for node in nodes:
            self.add(node)

    def lookup(self, key):
        if not self.ring:
            return None
        i = bisect.bisect_left(self.ring, (h32(key), ""))
        return self.ring[i % len(self.ring)][1]

    def add(self, node):
        self.nodes.add(node)
        for i in range(self.k):
            bisect.insort(self.ring, (h32(f"{node}#{i}"), node))

    def remove(self, node):
        self.nodes.discard(node)
        self.ring = [p for p in self.ring if p[1] != node]

    def points(self):
        return len(self.ring)

    def load(self, n):
        counts = {node: 0 for node in self.nodes}
        for i in range(n):
            owner = self.lookup(f"key{i}")
            if owner is not None:
                counts[owner] += 1
        return [[node, counts[node]] for node in sorted(counts)]
