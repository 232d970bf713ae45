"""Weighted rendezvous hashing (weighted-hrw): your solution goes here.

Check your work with:  grader grade --challenge weighted-hrw router.py
"""


def h32(text):
    """The pinned hash: FNV-1a over the UTF-8 bytes, then the MurmurHash3
    finalizer, all in unsigned 32-bit arithmetic. Done for you.

    h32("") == 2872998923, h32("a") == 444641715,
    h32("hello") == 2290972270, h32("A#0") == 2353899868
    """
    h = 2166136261
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & 0xFFFFFFFF
    h ^= h >> 16
    return h


class Router:
    def __init__(self, pairs):
        # TODO: remember each [name, weight] pair.
        pass

    def route(self, key):
        # TODO: the node with the highest weight / -ln(U), where
        # U = (h32(node + ":" + key) + 0.5) / 2**32; equal scores go to the
        # smaller name; None with no nodes.
        return None

    def top(self, key, n):
        # TODO: the first min(n, number of nodes) names by descending score,
        # ties by smaller name.
        return []

    def add(self, node, weight):
        # TODO: add the node, or set its new weight if it is present.
        pass

    def remove(self, node):
        # TODO: remove the node (removing an absent node changes nothing).
        pass
