"""A router on zlib.crc32 instead of the pinned h32, and no h32 exported:
no known mistake is this hash, and the grader cannot compare hashes, but
routes between two nodes show the scores are not the pinned ones."""

import zlib


class Router:
    def __init__(self, nodes):
        self.nodes = set(nodes)

    def add(self, node):
        self.nodes.add(node)

    def remove(self, node):
        self.nodes.discard(node)

    def route(self, key):
        return min(
            self.nodes,
            key=lambda n: (-zlib.crc32((n + ":" + key).encode("utf-8")), n),
            default=None,
        )
