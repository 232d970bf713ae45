"""Wrong: keeps the node with the LOWEST score, and carries a `top` it never
uses, as hrw-top's Router has: the shape must not hide the mistake."""


def h32(text):
    h = 2166136261
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & 0xFFFFFFFF
    return h ^ (h >> 16)


class Router:
    def __init__(self, nodes):
        self.nodes = set(nodes)

    def add(self, node):
        self.nodes.add(node)

    def remove(self, node):
        self.nodes.discard(node)

    def route(self, key):
        return min(self.nodes, key=lambda n: (h32(n + ":" + key), n), default=None)


Router.top = lambda self, key, n: []
