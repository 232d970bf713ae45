"""weighted-hrw whose remove fails on an absent node: `del` raises
KeyError where removing must change nothing."""

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
        self.weights = {name: weight for name, weight in pairs}

    def score(self, node, key):
        u = (h32(node + ":" + key) + 0.5) / 2**32
        return self.weights[node] / -math.log(u)

    def top(self, key, n):
        return sorted(self.weights, key=lambda node: (-self.score(node, key), node))[:n]

    def route(self, key):
        best = self.top(key, 1)
        return best[0] if best else None

    def add(self, node, weight):
        self.weights[node] = weight

    def remove(self, node):
        del self.weights[node]
