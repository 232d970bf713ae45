"""A correct router whose h32 wraps to 32 bits with ctypes's integer types,
as ports from C often do (the grader gives a submission those, in pure
Python); routes use the same hash with masks, a node's FNV-1a state of
"name:" computed once."""

import bisect
import ctypes
from ctypes import c_uint32

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
    h = ctypes.c_uint32(2166136261)
    for b in text.encode("utf-8"):
        h = c_uint32((h.value ^ b) * 16777619)
    x = h.value
    x ^= x >> 16
    x = c_uint32(x * 0x85EBCA6B).value
    x ^= x >> 13
    x = c_uint32(x * 0xC2B2AE35).value
    return x ^ (x >> 16)


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
