"""Wrong twice, as code put together from a public library would be: the
scores are MurmurHash3 (x86, 32-bit, seed 0), not h32, and no h32 is
exported; and the nodes are a list that keeps a node added twice, so
`list.remove` takes one copy away and the node still gets keys."""


def murmur3(text, seed=0):
    data = text.encode("utf-8")
    c1, c2 = 0xCC9E2D51, 0x1B873593
    h = seed
    n = len(data) // 4 * 4
    for i in range(0, n, 4):
        k = int.from_bytes(data[i:i + 4], "little")
        k = (k * c1) & 0xFFFFFFFF
        k = ((k << 15) | (k >> 17)) & 0xFFFFFFFF
        k = (k * c2) & 0xFFFFFFFF
        h ^= k
        h = ((h << 13) | (h >> 19)) & 0xFFFFFFFF
        h = (h * 5 + 0xE6546B64) & 0xFFFFFFFF
    k = 0
    tail = data[n:]
    for i, b in enumerate(tail):
        k |= b << (8 * i)
    if tail:
        k = (k * c1) & 0xFFFFFFFF
        k = ((k << 15) | (k >> 17)) & 0xFFFFFFFF
        k = (k * c2) & 0xFFFFFFFF
        h ^= k
    h ^= len(data)
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & 0xFFFFFFFF
    h ^= h >> 16
    return h


class Router:
    def __init__(self, nodes):
        self.nodes = list(nodes)

    def add(self, node):
        self.nodes.append(node)

    def remove(self, node):
        if node in self.nodes:
            self.nodes.remove(node)

    def route(self, key):
        best = None
        for n in self.nodes:
            s = murmur3(n + ":" + key)
            if best is None or s > best[0] or (s == best[0] and n < best[1]):
                best = (s, n)
        return best and best[1]
