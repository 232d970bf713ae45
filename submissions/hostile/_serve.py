"""The protocol spoken by hand, for a hostile program that is an
executable (the grader's Python driver refuses ctypes, so an attack that
calls the C library runs as the learner's own program): a correct router
whose routes answer `answer(key)` instead (not graded by itself)."""
import json
import os


def h32(text):
    h = 2166136261
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & 0xFFFFFFFF
    return h ^ (h >> 16)


def serve(answer):
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
                out.append(answer(operand))
        return out

    with os.fdopen(3, "r") as requests, os.fdopen(4, "w") as replies:
        def reply(message):
            replies.write(json.dumps(message) + "\n")
            replies.flush()

        reply({"hello": {"protocol": 1, "api": "solve", "h32": True, "runtime": "executable"}})
        for line in requests:
            request = json.loads(line)
            if "case" in request:
                reply({"id": request["id"], "output": solve(*request["case"])})
            elif "h32" in request:
                reply({"id": request["id"], "h32": [h32(t) for t in request["h32"]]})
