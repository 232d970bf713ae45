"""vnode-ring whose load counts the owners it meets with a Counter.

Wrong: a node that gets none of the keys is left out of load(n), which
must list every node, zero counts included.
"""

import bisect
from collections import Counter


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
        if node in self.nodes:
            return
        self.nodes.add(node)
        for i in range(self.k):
            bisect.insort(self.ring, (h32(f"{node}#{i}"), node))

    def remove(self, node):
        if node in self.nodes:
            self.nodes.discard(node)
            self.ring = [p for p in self.ring if p[1] != node]

    def points(self):
        return len(self.ring)

    def load(self, n):
        counts = Counter(self.lookup(f"key{i}") for i in range(n))
        counts.pop(None, None)
        return [[node, c] for node, c in sorted(counts.items())]
