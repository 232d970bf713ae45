"""hrw-top with the nodes in a list: a node added twice is there twice,
ranked twice, and removing it takes one copy away."""


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
        self.nodes = list(nodes)

    def top(self, key, n):
        return sorted(self.nodes, key=lambda node: (-h32(key + "|" + node), node))[:n]

    def route(self, key):
        best = self.top(key, 1)
        return best[0] if best else None

    def add(self, node):
        self.nodes.append(node)

    def remove(self, node):
        if node in self.nodes:
            self.nodes.remove(node)
