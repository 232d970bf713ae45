"""vnode-ring with three slips at once: bisect_right (a key exactly on a
point goes to the next one), an index clamped to the last point instead
of wrapped, and a removal that deletes from the ring while looping over
it (each point after a removed one is skipped)."""

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
        i = bisect.bisect_right([p for p, _ in self.ring], h32(key))
        return self.ring[min(i, len(self.ring) - 1)][1]

    def add(self, node):
        if node in self.nodes:
            return
        self.nodes.add(node)
        for i in range(self.k):
            bisect.insort(self.ring, (h32(f"{node}#{i}"), node))

    def remove(self, node):
        if node not in self.nodes:
            return
        self.nodes.discard(node)
        i = 0
        while i < len(self.ring):
            if self.ring[i][1] == node:
                del self.ring[i]
            i += 1

    def points(self):
        return len(self.ring)

    def load(self, n):
        counts = {node: 0 for node in self.nodes}
        for i in range(n):
            owner = self.lookup(f"key{i}")
            if owner is not None:
                counts[owner] += 1
        return [[node, counts[node]] for node in sorted(counts)]
