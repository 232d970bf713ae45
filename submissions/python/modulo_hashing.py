"""Wrong, and not a known mistake: routes by h32(key) modulo the number of
nodes, so adding or removing one node moves almost every key. No variant
reproduces it; the grader names the property it breaks instead."""


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
        self.nodes = sorted(set(nodes))

    def add(self, node):
        if node not in self.nodes:
            self.nodes = sorted(self.nodes + [node])

    def remove(self, node):
        if node in self.nodes:
            self.nodes.remove(node)

    def route(self, key):
        if not self.nodes:
            return None
        return self.nodes[h32(key) % len(self.nodes)]
