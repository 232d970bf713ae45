"""A router that remembers each key's node, to route it faster the next
time, and never forgets: after add or remove, a key asked before keeps
its old node."""


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
        self.cache = {}

    def add(self, node):
        self.nodes.add(node)

    def remove(self, node):
        self.nodes.discard(node)

    def route(self, key):
        if key not in self.cache:
            best = None
            for node in sorted(self.nodes):
                if best is None or h32(node + ":" + key) > h32(best + ":" + key):
                    best = node
            self.cache[key] = best
        return self.cache[key]
