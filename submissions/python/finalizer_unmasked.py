"""Wrong: masks once after the loop, then never in the finalizer, so its
values grow past 32 bits. Its own h32 rules out every hash mistake: none
may be named, not even as the closest."""

def h32(text):
    h = 2166136261
    for b in text.encode():
        h = (h ^ b) * 16777619
    h &= 0xFFFFFFFF
    h ^= h >> 16; h = h * 0x85ebca6b
    h ^= h >> 13; h = h * 0xc2b2ae35
    h ^= h >> 16
    return h

class Router:
    def __init__(self, nodes):
        self.nodes = set(nodes)
    def add(self, n): self.nodes.add(n)
    def remove(self, n): self.nodes.discard(n)
    def route(self, key):
        if not self.nodes: return None
        return max(sorted(self.nodes, reverse=True), key=lambda n: h32(n + ":" + key))
