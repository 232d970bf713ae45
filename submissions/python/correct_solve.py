"""A correct answer in the solve(args, ops) form, straight from the rules."""


def h32(text):
    h = 2166136261
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & 0xFFFFFFFF
    return h ^ (h >> 16)


def solve(args, ops):
    nodes = set(args[0])
    out = []
    for name, operand in ops:
        if name == "add":
            nodes.add(operand)
            out.append(None)
        elif name == "remove":
            nodes.discard(operand)
            out.append(None)
        else:
            # Highest score first, then the smaller name.
            out.append(min(nodes, key=lambda n: (-h32(n + ":" + operand), n), default=None))
    return out
