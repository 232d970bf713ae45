"""hrw-top whose remove fails on an absent node: set.remove raises
KeyError where set.discard would change nothing."""


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
        return ranked[:n]

    def route(self, key):
        best = self.top(key, 1)
        return best[0] if best else None

    def add(self, node):
        self.nodes.add(node)

    def remove(self, node):
        self.nodes.remove(node)
