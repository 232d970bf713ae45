"""weighted-hrw with the names and the weights in two lists side by side:
remove takes the name out of one and forgets the other, so each name
after the removed one has the weight of the one before it."""

import math


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
    def __init__(self, pairs):
        self.names = []
        self.weights = []
        for name, weight in pairs:
            self.add(name, weight)

    def add(self, node, weight):
        if node in self.names:
            self.weights[self.names.index(node)] = weight
        else:
            self.names.append(node)
            self.weights.append(weight)

    def remove(self, node):
        if node in self.names:
            self.names.remove(node)

    def top(self, key, n):
        scored = []
        for i, node in enumerate(self.names):
            u = (h32(node + ":" + key) + 0.5) / 2**32
            scored.append((-self.weights[i] / -math.log(u), node))
        return [node for _, node in sorted(scored)][:n]

    def route(self, key):
        best = self.top(key, 1)
        return best[0] if best else None
