"""Wrong: picks max over (score, name) pairs, the idiom that looks like a
tie-break but sends a tie to the larger name."""

MASK = 0xFFFFFFFF


def h32(text):
    h = 2166136261
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 16777619) & MASK
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & MASK
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & MASK
    return h ^ (h >> 16)


class Router:
    def __init__(self, nodes):
        self.nodes = set(nodes)

    def add(self, node):
        self.nodes.add(node)

    def remove(self, node):
        self.nodes.discard(node)

    def route(self, key):
        if not self.nodes:
            return None
        return max(self.nodes, key=lambda n: (h32(n + ":" + key), n))
