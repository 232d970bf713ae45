"""hrw-top that takes n nodes, then ranks them.

Wrong: top(key, n) must rank every node and return the first n; this one
ranks only the first n nodes added, so a higher-scoring node added later
never makes the list. route looks at every node and is right.
"""


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
        self.nodes = list(dict.fromkeys(nodes))

    def score(self, key, node):
        return h32(key + "|" + node)

    def route(self, key):
        if not self.nodes:
            return None
        return min(self.nodes, key=lambda node: (-self.score(key, node), node))

    def top(self, key, n):
        replicas = self.nodes[:n]
        return sorted(replicas, key=lambda node: (-self.score(key, node), node))

    def add(self, node):
        if node not in self.nodes:
            self.nodes.append(node)

    def remove(self, node):
        if node in self.nodes:
            self.nodes.remove(node)
