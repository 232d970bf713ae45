"""A correct router in the idioms learners use: a dataclass, a cached
hash, a sorted container, and a `__main__` block for trying it by hand
(skipped when the grader imports the module)."""

from dataclasses import dataclass, field
from functools import lru_cache


@lru_cache(maxsize=None)
def h32(text: str) -> int:
    h = 2166136261
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & 0xFFFFFFFF
    return h ^ (h >> 16)


@dataclass
class Router:
    nodes: list = field(default_factory=list)

    def __post_init__(self):
        self.nodes = sorted(set(self.nodes))

    def add(self, node: str) -> None:
        if node not in self.nodes:
            self.nodes = sorted(self.nodes + [node])

    def remove(self, node: str) -> None:
        self.nodes = [n for n in self.nodes if n != node]

    def route(self, key: str):
        best = None
        for n in self.nodes:  # sorted: the first of equal scores is the smaller name
            if best is None or h32(n + ":" + key) > h32(best + ":" + key):
                best = n
        return best


if __name__ == "__main__":
    print(Router(["cache-1", "cache-2", "cache-3"]).route("user:1"))
    raise SystemExit("run by hand only")
