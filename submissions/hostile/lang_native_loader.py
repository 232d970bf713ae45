"""ctypes's extension loaded by hand, not imported (_imp.create_dynamic
raises no import of ctypes itself), then a pointer write, which no audit
event sees, into the memory of a wrong Router's code: refused when the
extension loads, naming the line: compile-error."""

import _imp
import importlib.util
import os
import sys

from _router import Router as _Correct  # noqa: F401 (what a write would aim at)

found = [
    os.path.join(entry, name)
    for entry in sys.path if os.path.isdir(entry)
    for name in os.listdir(entry) if name.startswith("_ctypes.")
]
native = _imp.create_dynamic(importlib.util.spec_from_file_location("x._ctypes", found[0]))
cell = native.POINTER(native._SimpleCData)


class Router:
    def __init__(self, nodes):
        self.nodes = sorted(nodes)

    def route(self, key):
        return self.nodes[0] if self.nodes else None
