"""Consistent-hash ring (vnode-ring): your solution goes here.

Check your work with:  grader grade --challenge vnode-ring router.py
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
    def __init__(self, nodes, k):
        # TODO: place k points per node at h32(node + "#" + str(i)); keep the
        # ring as (position, node) entries sorted by position, then name.
        pass

    def lookup(self, key):
        # TODO: the node of the first entry at or after h32(key), wrapping
        # past the end; None on an empty ring.
        return None

    def add(self, node):
        # TODO: place the node's k points (a present node changes nothing).
        pass

    def remove(self, node):
        # TODO: take all k points away (an absent node changes nothing).
        pass

    def points(self):
        # TODO: the number of entries on the ring.
        return 0

    def load(self, n):
        # TODO: look up "key0" .. f"key{n-1}"; return [[node, count], ...]
        # for every node, sorted by name, zero counts included.
        return []
