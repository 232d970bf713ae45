"""Wrong twice: routes to the lowest score instead of the highest, and
`remove` steps to the next node only after deleting one, so it loops
forever once it keeps a node. A test that routes before it removes gets
a time limit, and still shows its first wrong route."""

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
        self.nodes = []
        for node in nodes:
            self.add(node)

    def add(self, node):
        if node not in self.nodes:
            self.nodes.append(node)

    def remove(self, node):
        i = 0
        while i < len(self.nodes):
            if self.nodes[i] == node:
                del self.nodes[i]

    def route(self, key):
        best, best_score = None, None
        for node in sorted(self.nodes):
            score = h32(node + ":" + key)
            if best_score is None or score < best_score:
                best, best_score = node, score
        return best
