"""A router that answers its first node in name order for every key, as a
learner's placeholder does before route is written. No known mistake
explains it, and the grader names none (a toy hash agrees on a test or two
by chance, which is no evidence)."""


class Router:
    def __init__(self, nodes):
        self.nodes = sorted(set(nodes))

    def add(self, node):
        if node not in self.nodes:
            self.nodes.append(node)
            self.nodes.sort()

    def remove(self, node):
        if node in self.nodes:
            self.nodes.remove(node)

    def route(self, key):
        return self.nodes[0] if self.nodes else None
