"""Wrong: hashes key + ":" + node instead of node + ":" + key."""

from lowest_score import h32


class Router:
    def __init__(self, nodes):
        self.nodes = set(nodes)

    def add(self, node):
        self.nodes.add(node)

    def remove(self, node):
        self.nodes.discard(node)

    def route(self, key):
        return min(self.nodes, key=lambda n: (-h32(key + ":" + n), n), default=None)
