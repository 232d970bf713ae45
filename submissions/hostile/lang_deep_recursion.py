"""Raises at the bottom of a recursion 50,000 deep: the driver keeps the
innermost frames of the traceback, resolving each file once, and the
verdict is this program's runtime error, never a time limit spent
building the traceback."""

import sys

sys.setrecursionlimit(100_000)


def down(n):
    return down(n - 1) if n else {}["the bottom of the recursion"]


class Router:
    def __init__(self, nodes):
        self.nodes = nodes

    def add(self, node):
        pass

    def remove(self, node):
        pass

    def route(self, key):
        return down(50_000)
