"""Wrong: list.remove raises ValueError when the node is not there."""

from lowest_score import h32


class Router:
    def __init__(self, nodes):
        self.nodes = sorted(set(nodes))

    def add(self, node):
        if node not in self.nodes:
            self.nodes.append(node)
            self.nodes.sort()

    def remove(self, node):
        self.nodes.remove(node)

    def route(self, key):
        return min(self.nodes, key=lambda n: (-h32(n + ":" + key), n), default=None)
