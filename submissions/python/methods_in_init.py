"""A correct router whose route is set on the instance in __init__ (a
closure over its state), not defined on the class as add and remove are:
it must count as a method all the same."""


def h32(text):
    h = 2166136261
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & 0xFFFFFFFF
    return h ^ (h >> 16)


class Router:
    def __init__(self, nodes):
        self.members = members = set(nodes)

        def route(key):
            return min(members, key=lambda n: (-h32(n + ":" + key), n), default=None)

        self.route = route

    def add(self, node):
        self.members.add(node)

    def remove(self, node):
        self.members.discard(node)
