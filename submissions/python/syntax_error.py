"""Wrong: does not parse. Every test reports the line of the syntax error."""


class Router:
    def __init__(self, nodes)
        self.nodes = set(nodes)
