#!/usr/bin/env python3
"""Writes the test cases of hrw-top, vnode-ring and weighted-hrw with their
expected outputs.

As for rendezvous-router (tools/make_rendezvous_cases.py), the expected
outputs come from this file's own naive implementations of the spec,
written independently of the Rust reference; the grader's tests check that
the reference agrees with every expected file. Weighted cases are checked
here to hold no fragile decision (two scores within 1e-9 relative). The
same script writes the same bytes.

Usage: python3 tools/make_course_cases.py [challenges]
"""

import bisect
import json
import math
import os
import random
import sys

# The pinned hash, the node set, the canonical JSON text and the search for
# names whose FNV-1a states collide are rendezvous-router's tool's own.
from make_rendezvous_cases import collision as fnv_state_collision  # noqa: E402
from make_rendezvous_cases import Members, dump, fnv1a, h32  # noqa: E402

FRAGILE = 1e-9


# --- hrw-top ---------------------------------------------------------------

def hrw_top(args, ops):
    """A list of members; every query ranks them all by (-score, name)."""
    (nodes,) = args
    members = Members(nodes)
    out = []
    for op in ops:
        name = op[0]
        if name in ("route", "top"):
            key = op[1]
            ranking = sorted(members, key=lambda n: (-h32(key + "|" + n), n))
            if name == "route":
                out.append(ranking[0] if ranking else None)
            else:
                out.append(ranking[: op[2]])
        elif name == "add":
            members.add(op[1])
            out.append(None)
        elif name == "remove":
            members.discard(op[1])
            out.append(None)
        else:
            raise ValueError(name)
    return out


def key_tie(key, prefix):
    """Two names prefix+i with h32(key + "|" + name) equal: they tie on this
    key (and, in general, on no other)."""
    return fnv_state_collision(prefix, key + "|")


# --- vnode-ring ------------------------------------------------------------

def vnode_ring(args, ops):
    """The ring rebuilt from the member list before every question."""
    nodes, k = args
    members = Members(nodes)

    def ring():
        return sorted((h32(f"{n}#{i}"), n) for n in members for i in range(k))

    def lookup(entries, positions, key):
        if not entries:
            return None
        i = bisect.bisect_left(positions, h32(key))
        return entries[i % len(entries)][1]

    out = []
    for op in ops:
        name = op[0]
        if name == "lookup":
            entries = ring()
            out.append(lookup(entries, [p for p, _ in entries], op[1]))
        elif name == "add":
            members.add(op[1])
            out.append(None)
        elif name == "remove":
            members.discard(op[1])
            out.append(None)
        elif name == "points":
            out.append(len(ring()))
        elif name == "load":
            entries = ring()
            positions = [p for p, _ in entries]
            counts = {n: 0 for n in members}
            for i in range(op[1]):
                owner = lookup(entries, positions, f"key{i}")
                if owner is not None:
                    counts[owner] += 1
            out.append([[n, counts[n]] for n in sorted(counts)])
        else:
            raise ValueError(name)
    return out


def point_collision(prefix, k):
    """Two names prefix+m, one of whose k points each share a position."""
    seen = {}
    m = 0
    while True:
        for i in range(k):
            p = h32(f"{prefix}{m}#{i}")
            if p in seen and seen[p] != m:
                a, b = f"{prefix}{seen[p]}", f"{prefix}{m}"
                return (a, b) if a < b else (b, a)
            seen.setdefault(p, m)
        m += 1


# --- weighted-hrw ----------------------------------------------------------

def weighted_score(node, weight, key):
    u = (h32(node + ":" + key) + 0.5) / 2**32
    return weight / -math.log(u)


def weighted_hrw(args, ops):
    """A dict of weights; every query scores all members. Refuses a case
    whose answer hangs on a gap below FRAGILE (relative)."""
    (pairs,) = args
    weights = {}
    for n, w in pairs:
        weights[n] = w
    out = []
    for op in ops:
        name = op[0]
        if name in ("route", "top"):
            key = op[1]
            scored = sorted(((weighted_score(n, w, key), n) for n, w in weights.items()),
                            key=lambda s: (-s[0], s[1]))
            decided = 1 if name == "route" else op[2]
            for (a, x), (b, y) in list(zip(scored, scored[1:]))[:decided]:
                gap = (a - b) / a
                assert not (0 < gap < FRAGILE), f"fragile: {x} {y} on {key!r}"
            ranking = [n for _, n in scored]
            if name == "route":
                out.append(ranking[0] if ranking else None)
            else:
                out.append(ranking[: op[2]])
        elif name == "add":
            weights[op[1]] = op[2]
            out.append(None)
        elif name == "remove":
            weights.pop(op[1], None)
            out.append(None)
        else:
            raise ValueError(name)
    return out


# --- writing ---------------------------------------------------------------

def writer(root, challenge, solve):
    def write(group, name, case):
        folder = os.path.join(root, challenge, "tests", group)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, name + ".json"), "w", encoding="utf-8") as f:
            f.write(dump(case))
        with open(os.path.join(folder, name + ".expected.json"), "w", encoding="utf-8") as f:
            f.write(dump(solve(*case)))
    return write


def churn(rng, n_ops, pool, asks):
    """Random operations: `asks` is a list of (share, make) making a query."""
    ops = []
    for _ in range(n_ops):
        r = rng.random()
        for share, make in asks:
            if r < share:
                ops.append(make())
                break
            r -= share
        else:
            ops.append([rng.choice(["add", "remove"]), rng.choice(pool)])
    return ops


def make_hrw_top(root, vectors, rng):
    write = writer(root, "hrw-top", hrw_top)
    course = vectors["hrw-top"]["course-table"]["input"]
    write("sample", "course-table", course)
    pages = ["page1", "page2", "page3"]
    write("sample", "course-replicas", [[["red", "green", "blue"]],
          [["top", p, 3] for p in pages] + [["top", "page1", 2], ["remove", "green"]]
          + [["top", p, 3] for p in pages]])
    users = [f"user:{i}" for i in range(1, 21)]
    write("edge", "more-than-there-are", [[["red", "green", "blue"]],
          [["top", "page1", 5], ["top", "page2", 4], ["top", "page3", 1000]]])
    write("edge", "zero-replicas", [[["red", "green", "blue"]],
          [["top", "page1", 0], ["route", "page1"], ["top", "page2", 0]]])
    write("edge", "no-nodes", [[[]], [["route", "k"], ["top", "k", 3], ["top", "k", 0],
          ["add", "a"], ["top", "k", 3], ["remove", "a"], ["route", "k"]]])
    write("edge", "add-present-remove-absent", [[["a", "b", "c"]],
          [["add", "b"], ["remove", "z"]] + [["top", u, 5] for u in users[:8]]
          + [["remove", "b"], ["remove", "b"]] + [["top", u, 5] for u in users[:8]]])
    write("edge", "duplicate-initial-nodes", [[["a", "b", "a", "c"]],
          [["top", u, 4] for u in users[:6]] + [["remove", "a"]] + [["top", u, 4] for u in users[:6]]])
    write("edge", "non-ascii", [[["сервер", "サーバー", "nœud", "🖥️"]],
          [["top", k, 4] for k in ["ключ", "日本語", "🙂", "café", ""]]
          + [["route", k] for k in ["ключ", "naïve"]]])
    ties = []
    for key in ["page1", "user:7", "k"]:
        a, b = key_tie(key, "n")
        assert h32(key + "|" + a) == h32(key + "|" + b)
        ties.append((key, a, b))
    for i, (key, a, b) in enumerate(ties):
        write("ties", f"tie-{i + 1}", [[[b, "m", a]],
              [["top", key, 3], ["route", key], ["top", key, 2], ["remove", "m"], ["route", key]]])
    # The smaller name added first: a sort by score alone, which keeps tied
    # nodes in the order they were added, passes it; ties to the larger
    # name fail it. The two part here and nowhere else.
    key, a, b = ties[1]
    write("ties", "smaller-added-first", [[[a, "m", b]],
          [["top", key, 3], ["route", key], ["remove", "m"], ["top", key, 2]]])
    write("ties", "smaller-added-later", [[[ties[0][2]]],
          [["route", ties[0][0]], ["add", ties[0][1]], ["route", ties[0][0]], ["top", ties[0][0], 2]]])
    pool = [f"node-{i}" for i in range(12)]
    keys = [f"k{i}" for i in range(300)]
    for name, n in [("small", 300), ("heavy", 2000)]:
        ops = churn(rng, n, pool, [(0.3, lambda: ["route", rng.choice(keys)]),
                                   (0.3, lambda: ["top", rng.choice(keys), rng.randrange(0, 8)])])
        write("churn", name, [[pool[:4]], ops])
    write("large", "four-nodes-eight-thousand-keys", [[["A", "B", "C", "D"]],
          [["route", f"key{i}"] for i in range(8000)]])
    big = [f"replica-{i:03d}" for i in range(500)]
    ops = churn(rng, 5000, [f"replica-{i:03d}" for i in range(700)],
                [(0.5, lambda: ["top", f"obj/{rng.randrange(3000)}", 3]),
                 (0.3, lambda: ["route", f"obj/{rng.randrange(3000)}"])])
    write("large", "five-hundred-nodes", [[big], ops])


def make_vnode_ring(root, vectors, rng):
    write = writer(root, "vnode-ring", vnode_ring)
    write("sample", "at-or-after", vectors["vnode-ring"]["at-or-after"]["input"])
    abc = ["A", "B", "C"]
    write("sample", "points-and-load", [[abc, 4], [["points"], ["load", 10], ["remove", "B"],
          ["points"], ["load", 10], ["lookup", "A#2"]]])
    labels = [f"{n}#{i}" for n in abc for i in range(4)]
    write("ring", "keys-on-points", [[abc, 4], [["lookup", l] for l in labels]])
    entries = sorted((h32(f"{n}#{i}"), n) for n in abc for i in range(4))
    last = entries[-1][0]
    past = [k for k in (f"w{i}" for i in range(20000)) if h32(k) > last][:6]
    assert len(past) == 6
    write("ring", "wrap-past-the-last-point", [[abc, 4], [["lookup", k] for k in past]
          + [["remove", entries[0][1]]] + [["lookup", k] for k in past]])
    a, b = point_collision("p", 4)
    shared = [l for l in (f"{b}#{i}" for i in range(4)) if h32(l) in {h32(f"{a}#{j}") for j in range(4)}]
    write("ring", "colliding-points", [[[a, "q", b], 4], [["points"]]
          + [["lookup", l] for l in shared] + [["remove", a], ["points"]]
          + [["lookup", l] for l in shared] + [["add", a], ["points"]] + [["lookup", l] for l in shared]])
    write("ring", "colliding-points-larger-first", [[[b, a], 4], [["points"]]
          + [["lookup", l] for l in shared] + [["load", 200]]])
    write("edge", "empty-ring", [[[], 4], [["lookup", "k"], ["points"], ["load", 5], ["add", "A"],
          ["lookup", "k"], ["remove", "A"], ["lookup", "k"], ["points"]]])
    write("edge", "one-point-each", [[abc, 1], [["points"]] + [["lookup", k] for k in
          ["A#0", "B#0", "C#0", "x", "y", "z"]] + [["load", 100]]])
    write("edge", "no-points", [[abc, 0], [["points"], ["lookup", "x"], ["load", 3]]])
    write("edge", "add-present-remove-absent", [[abc, 4], [["add", "A"], ["points"], ["remove", "Z"],
          ["points"], ["load", 50], ["remove", "A"], ["remove", "A"], ["points"], ["load", 50]]])
    write("edge", "duplicate-initial-nodes", [[["A", "B", "A"], 4], [["points"], ["load", 30],
          ["remove", "A"], ["points"], ["load", 30]]])
    write("edge", "non-ascii", [[["сервер", "サーバー", "🖥️"], 3], [["points"]]
          + [["lookup", k] for k in ["ключ", "日本語", "🙂", "сервер#1", ""]] + [["load", 40]]])
    nodes = [f"node-{i}" for i in range(8)]
    write("removal", "points-after-removals", [[nodes, 16], [["points"], ["remove", "node-3"], ["points"],
          ["remove", "node-0"], ["remove", "node-7"], ["points"], ["load", 500], ["add", "node-3"],
          ["points"], ["load", 500]]])
    write("removal", "remove-and-re-add", [[abc, 4]] + [[["remove", "B"], ["points"]]
          + [["lookup", l] for l in labels] + [["add", "B"], ["points"]] + [["lookup", l] for l in labels]])
    write("load", "thousands-of-keys", [[["A", "B", "C", "D", "E"], 50], [["load", 5000], ["remove", "C"],
          ["load", 5000], ["add", "F"], ["load", 5000]]])
    pool = [f"cache-{i}" for i in range(10)]
    keys = [f"user:{i}" for i in range(400)]
    ops = churn(rng, 1500, pool, [(0.5, lambda: ["lookup", rng.choice(keys)]),
                                  (0.05, lambda: ["points"]), (0.02, lambda: ["load", 300])])
    write("churn", "mixed", [[pool[:3], 8], ops])
    big = [f"node-{i:03d}" for i in range(200)]
    ops = churn(rng, 6000, [f"node-{i:03d}" for i in range(300)],
                [(0.8, lambda: ["lookup", f"obj/{rng.randrange(10000)}"]), (0.02, lambda: ["points"])])
    write("large", "two-hundred-nodes", [[big, 64], ops + [["load", 20000]]])


def high_bits_tie(a, b):
    """The first key "key-N" whose scores on nodes a and b share their top
    16 bits, and whose order the finalizer's last `h ^= h >> 16` decides:
    only such a key tells a finalizer without that step from h32."""
    i = 0
    while True:
        key = f"key-{i}"
        fa, fb = h32(f"{a}:{key}"), h32(f"{b}:{key}")
        if fa >> 16 == fb >> 16:
            pa, pb = fa ^ (fa >> 16), fb ^ (fb >> 16)  # the last step undone
            if (fa > fb) != (pa > pb):
                return key
        i += 1


TOP_KEY = "key-a5a9r5d"
NEAR_TOP_KEY = "key-4054019"


def make_weighted_hrw(root, rng):
    write = writer(root, "weighted-hrw", weighted_hrw)
    users = [f"user:{i}" for i in range(1, 11)]
    caches = [["cache-1", 1], ["cache-2", 2], ["cache-3", 1]]
    write("sample", "weights-1-2-1", [[caches], [["route", u] for u in users]])
    write("sample", "reweigh-and-remove", [[caches], [["add", "cache-2", 5]]
          + [["route", u] for u in users] + [["remove", "cache-2"]] + [["top", u, 3] for u in users[:3]]])
    write("edge", "no-nodes", [[[]], [["route", "k"], ["top", "k", 2], ["add", "a", 1.5],
          ["route", "k"], ["remove", "a"], ["top", "k", 1]]])
    write("edge", "single-node", [[[["only", 0.25]]], [["route", u] for u in users[:4]] + [["top", "k", 3]]])
    write("edge", "fractional-and-large-weights", [[[["tiny", 0.001], ["mid", 1.5], ["huge", 1000]]],
          [["top", u, 3] for u in users] + [["remove", "huge"]] + [["route", u] for u in users]])
    write("edge", "remove-absent", [[caches], [["remove", "nope"], ["remove", ""]]
          + [["route", u] for u in users[:5]]])
    write("edge", "non-ascii", [[[["сервер", 1], ["サーバー", 2], ["🖥️", 3]]],
          [["top", k, 3] for k in ["ключ", "日本語", "🙂", "café", ""]]])
    close = high_bits_tie("node-a", "node-b")
    write("edge", "scores-alike-in-their-high-bits", [[[["node-a", 1], ["node-b", 1]]],
          [["route", close], ["top", close, 2]]])
    # h32("top:" + TOP_KEY) is 2^32 - 1, the largest there is (found by an
    # exhaustive search): U = (h32 + 0.5) / 2^32 is then 1 - 2^-33 and
    # -ln(U) about 2^-33, so "top", light as it is, outscores "mid" and
    # "low" (8.6e6, 6.4e6, 2.0e6). A U of h32 / 2^32 halves its score (it
    # comes second), one of h32 / (2^32 - 1) or (h32 + 1) / 2^32 makes it
    # -inf (it comes last).
    assert h32("top:" + TOP_KEY) == 2**32 - 1
    write("edge", "hash-at-the-top", [[[["top", 0.001], ["mid", 3500000], ["low", 700000]]],
          [["route", TOP_KEY], ["top", TOP_KEY, 3], ["route", "user:1"], ["top", "user:1", 3]]])
    # h32("top:" + NEAR_TOP_KEY) is 2^32 - 8 (found by a search): in double
    # precision U is below 1 however it is made, and "top" wins; in single
    # precision every h32 from 2^32 - 128 up rounds to 2^32, U to 1, and
    # the score to -inf, so "top" comes last. Only this case tells a U in
    # single precision from h32 / (2^32 - 1), which is 1 at 2^32 - 1 only.
    assert h32("top:" + NEAR_TOP_KEY) == 2**32 - 8
    write("edge", "hash-near-the-top", [[[["top", 1], ["mid", 1], ["low", 1]]],
          [["route", NEAR_TOP_KEY], ["top", NEAR_TOP_KEY, 3]]])
    # "b" outscores "a" on "k2" by 2.9e-8 of its score (found by a search):
    # far above the 1e-9 a test may hang on. A U in single precision moves
    # the two scores by less than that here and keeps the order, but a
    # logarithm and a score in single precision too, 24 bits, round the
    # two scores to one, and the tie goes to "a".
    write("edge", "scores-a-hair-apart", [[[["a", 1], ["b", 0.694492722]]],
          [["route", "k2"], ["top", "k2", 2]]])
    write("weights", "add-sets-the-weight", [[caches], [["route", u] for u in users]
          + [["add", "cache-1", 50]] + [["route", u] for u in users]
          + [["add", "cache-1", 0.01]] + [["route", u] for u in users]
          + [["add", "cache-4", 2]] + [["top", u, 4] for u in users]])
    write("weights", "equal-weights-like-unweighted", [[[["a", 3], ["b", 3], ["c", 3]]],
          [["route", f"k{i}"] for i in range(30)]])
    a, b = fnv_state_collision("tie-")
    write("ties", "tied-pair", [[[[b, 2], [a, 2], ["other", 1]]],
          [["top", f"k{i}", 3] for i in range(20)]])
    # As tied-pair with the smaller name first: a sort by score alone passes
    # it, ties to the larger name fail it.
    write("ties", "tied-pair-smaller-first", [[[[a, 2], [b, 2], ["other", 1]]],
          [["top", f"k{i}", 3] for i in range(20)]])
    write("ties", "tie-broken-by-weight", [[[[b, 2.5], [a, 2]]], [["route", f"k{i}"] for i in range(20)]
          + [["add", a, 2.5]] + [["route", f"k{i}"] for i in range(20)]])
    write("shares", "proportional", [[[["a", 1], ["b", 2], ["c", 3], ["d", 4]]],
          [["route", f"key{i}"] for i in range(4000)]])
    pool = [f"node-{i}" for i in range(10)]
    ops = []
    for _ in range(1500):
        r = rng.random()
        if r < 0.4:
            ops.append(["route", f"k{rng.randrange(300)}"])
        elif r < 0.6:
            ops.append(["top", f"k{rng.randrange(300)}", rng.randrange(0, 6)])
        elif r < 0.85:
            ops.append(["add", rng.choice(pool), rng.choice([0.5, 1, 2, 3.25, 10])])
        else:
            ops.append(["remove", rng.choice(pool)])
    write("churn", "mixed", [[[[n, 1] for n in pool[:4]]], ops])


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "challenges"
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "reference", "tests", "fixtures", "vectors.json"), encoding="utf-8") as f:
        vectors = json.load(f)
    make_hrw_top(root, vectors, random.Random(1))
    make_vnode_ring(root, vectors, random.Random(2))
    make_weighted_hrw(root, random.Random(3))


if __name__ == "__main__":
    main()
