#!/usr/bin/env python3
"""Writes the rendezvous-router test cases and their expected outputs.

The expected outputs come from this file's own naive implementation of the
spec, written independently of the Rust reference: the grader's test suite
then checks that the reference agrees with every expected file, so two
implementations must agree for a case to ship. Deterministic: the same
script writes the same bytes.

Usage: python3 tools/make_rendezvous_cases.py [challenges/rendezvous-router/tests]
"""

import json
import os
import random
import sys

MASK = 0xFFFFFFFF


def fnv1a(data, h=2166136261):
    for b in data:
        h = ((h ^ b) * 16777619) & MASK
    return h


def h32(text):
    h = fnv1a(text.encode("utf-8"))
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & MASK
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & MASK
    h ^= h >> 16
    return h


class Members(list):
    """The node set of the spec, kept in the order names came: a name given
    twice is one node, adding a present node or removing an absent one
    changes nothing."""

    def __init__(self, names=()):
        super().__init__()
        for n in names:
            self.add(n)

    def add(self, name):
        if name not in self:
            self.append(name)

    def discard(self, name):
        if name in self:
            self.remove(name)


def solve(args, ops):
    """The spec, read literally: a set of names, a linear scan per route."""
    (nodes,) = args
    members = Members(nodes)
    out = []
    for op in ops:
        name, operand = op
        if name == "route":
            best = None
            for n in members:
                s = h32(n + ":" + operand)
                # Highest score; on equal scores the smaller name.
                if best is None or s > best[0] or (s == best[0] and n < best[1]):
                    best = (s, n)
            out.append(best[1] if best else None)
        elif name == "add":
            members.add(operand)
            out.append(None)
        elif name == "remove":
            members.discard(operand)
            out.append(None)
        else:
            raise ValueError(name)
    return out


def collision(prefix, context=""):
    """Two names prefix+i whose FNV-1a states collide after `context`: with
    no context they tie on every key (node + ":" + key); after key + "|"
    they tie on that key (hrw-top)."""
    seen = {}
    base = fnv1a((context + prefix).encode())
    i = 0
    while True:
        state = fnv1a(str(i).encode(), base)
        if state in seen:
            a, b = prefix + str(seen[state]), prefix + str(i)
            return (a, b) if a < b else (b, a)
        seen[state] = i
        i += 1


def dump(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n"


def write(root, group, name, case):
    folder = os.path.join(root, group)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name + ".json"), "w", encoding="utf-8") as f:
        f.write(dump(case))
    with open(os.path.join(folder, name + ".expected.json"), "w", encoding="utf-8") as f:
        f.write(dump(solve(*case)))


def routes(keys):
    return [["route", k] for k in keys]


def churn(rng, initial, pool, n_ops, route_share, keys):
    ops = []
    for _ in range(n_ops):
        r = rng.random()
        if r < route_share:
            ops.append(["route", rng.choice(keys)])
        elif r < route_share + (1 - route_share) / 2:
            ops.append(["add", rng.choice(pool)])
        else:
            ops.append(["remove", rng.choice(pool)])
    return [[initial], ops]


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "challenges/rendezvous-router/tests"
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "reference", "tests", "fixtures", "vectors.json"), encoding="utf-8") as f:
        vectors = json.load(f)
    for name, sample in vectors["rendezvous-router"].items():
        write(root, "sample", name, sample["input"])

    users = [f"user:{i}" for i in range(1, 21)]
    write(root, "edge", "empty-node-set", [[[]], [["route", "user:1"], ["remove", "a"], ["route", ""],
                                                    ["add", "a"], ["route", "user:1"], ["remove", "a"],
                                                    ["route", "user:1"]]])
    write(root, "edge", "single-node", [[["only"]], routes(["", "user:1", "only", "ü"])])
    write(root, "edge", "add-present-node", [[["cache-1", "cache-2", "cache-3"]],
                                             [["add", "cache-2"], ["add", "cache-2"]] + routes(users[:10])
                                             + [["remove", "cache-2"]] + routes(users[:10])])
    write(root, "edge", "remove-absent-node", [[["cache-1", "cache-2", "cache-3"]],
                                               [["remove", "cache-9"], ["remove", ""]] + routes(users[:10])
                                               + [["remove", "cache-1"], ["remove", "cache-1"]] + routes(users[:10])])
    write(root, "edge", "duplicate-initial-nodes", [[["cache-1", "cache-2", "cache-1", "cache-3", "cache-1"]],
                                                    routes(users[:6]) + [["remove", "cache-1"]] + routes(users)])
    write(root, "edge", "remove-everything", [[["a", "b"]], [["remove", "a"], ["remove", "b"]] + routes(["x", "y"])
                                              + [["add", "b"]] + routes(["x", "y"])])
    write(root, "edge", "non-ascii-keys", [[["cache-1", "cache-2", "cache-3"]],
                                           routes(["ключ", "日本語", "🙂", "café", "naïve", "Ωmega", "e\u0301",
                                                   "\u00e9", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "tab\there", ""])])
    write(root, "edge", "non-ascii-nodes", [[["сервер", "サーバー", "server", "🖥️"]],
                                            routes(users[:12]) + [["remove", "サーバー"]] + routes(users[:12])])
    write(root, "edge", "names-that-look-alike", [[["a", "a:", "a::", "A", "a "]],
                                                  routes([":", "", "::", "a", "b:c"] + users[:8])])

    a, b = collision("node-")
    assert h32(a + ":k") == h32(b + ":k") and a < b
    keys = [f"key-{i}" for i in range(40)]
    write(root, "ties", "tied-pair-alone", [[[a, b]], routes(keys)])
    write(root, "ties", "tied-pair-larger-first", [[[b, a]], routes(keys)])
    write(root, "ties", "tied-pair-among-others", [[[b, "node-x", a, "node-y", "node-z"]], routes(keys)])
    write(root, "ties", "smaller-added-later", [[[b]], routes(keys[:5]) + [["add", a]] + routes(keys)
                                                + [["remove", a]] + routes(keys[:5])])
    write(root, "ties", "re-added-after-removal", [[[a, b]], [["remove", a], ["add", a]] + routes(keys)])

    rng = random.Random(20261202)
    pool = [f"cache-{i}" for i in range(1, 13)]
    write(root, "churn", "small-pool", churn(rng, pool[:3], pool, 400, 0.5, users))
    write(root, "churn", "grow-and-shrink",
          [[pool[:2]], [["add", n] for n in pool] + routes(users) + [["remove", n] for n in pool[::2]]
           + routes(users) + [["add", n] for n in pool[::-1]] + routes(users)
           + [["remove", n] for n in pool] + routes(users[:3])])
    big_pool = [f"shard-{i:03d}" for i in range(60)] + [a, b]
    write(root, "churn", "heavy", churn(rng, big_pool[:20], big_pool, 3000, 0.4,
                                        [f"k{i}" for i in range(500)]))

    nodes = [f"node-{i:04d}" for i in range(1000)]
    pool = [f"node-{i:04d}" for i in range(2000)]
    write(root, "large", "thousand-nodes", churn(rng, nodes, pool, 10000, 0.1,
                                                 [f"object/{i}" for i in range(5000)]))


if __name__ == "__main__":
    main()
