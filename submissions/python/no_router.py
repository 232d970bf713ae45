"""Wrong: the class is misnamed, so the grader finds neither Router nor solve."""


class HashRouter:
    def __init__(self, nodes):
        self.nodes = set(nodes)
