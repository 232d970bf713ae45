"""Wrong: keeps the first maximum seen in insertion order, so a tie goes to
whichever node was added first instead of the smaller name."""

from lowest_score import h32


class Router:
    def __init__(self, nodes):
        self.nodes = []
        for n in nodes:
            self.add(n)

    def add(self, node):
        if node not in self.nodes:
            self.nodes.append(node)

    def remove(self, node):
        if node in self.nodes:
            self.nodes.remove(node)

    def route(self, key):
        best, best_score = None, -1
        for n in self.nodes:
            score = h32(n + ":" + key)
            if score > best_score:
                best, best_score = n, score
        return best
