"""A correct rendezvous router: nodes kept sorted, each node's FNV-1a state
of "name:" computed once, so a route only hashes the key per node."""

import bisect

MASK = 0xFFFFFFFF


def _fnv(data, h=2166136261):
    for b in data:
        h = ((h ^ b) * 16777619) & MASK
    return h


def _fmix(h):
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & MASK
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & MASK
    return h ^ (h >> 16)


def h32(text):
    return _fmix(_fnv(text.encode("utf-8")))


class Router:
    def __init__(self, nodes):
        self.names = []
        self.states = []
        for n in nodes:
            self.add(n)

    def add(self, node):
        i = bisect.bisect_left(self.names, node)
        if i == len(self.names) or self.names[i] != node:
            self.names.insert(i, node)
            self.states.insert(i, _fnv((node + ":").encode("utf-8")))

    def remove(self, node):
        i = bisect.bisect_left(self.names, node)
        if i < len(self.names) and self.names[i] == node:
            del self.names[i]
            del self.states[i]

    def route(self, key):
        data = key.encode("utf-8")
        best, best_score = None, -1
        # Names are sorted, so a strict ">" keeps the smaller name on ties.
        for name, state in zip(self.names, self.states):
            score = _fmix(_fnv(data, state))
            if score > best_score:
                best, best_score = name, score
        return best
