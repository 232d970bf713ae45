"""hrw-top wrong twice: reverse=True on (score, name) puts the larger name
first in a tie, and indexing n times fails when n exceeds the node count."""


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
        ranked = sorted(
            self.nodes, key=lambda node: (h32(key + "|" + node), node), reverse=True
        )
        return [ranked[i] for i in range(n)]

    def route(self, key):
        if not self.nodes:
            return None
        return self.top(key, 1)[0]

    def add(self, node):
        self.nodes.add(node)

    def remove(self, node):
        self.nodes.discard(node)
