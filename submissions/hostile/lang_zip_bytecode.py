"""An archive on its own sys.path holding a wrong solution.py and, beside
it, bytecode compiled from a correct router as an unchecked-hash .pyc,
which Python would load without ever comparing it with the source. Built
at load time in the scratch folder (any Python version's bytecode). The
driver holds every import to source: the .py runs, wrong-answer, as the
same files unpacked would."""

import importlib.util
import io
import marshal
import os
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
WRONG = '''
class Router:
    def __init__(self, nodes):
        self.nodes = sorted(nodes)

    def route(self, key):
        return self.nodes[0] if self.nodes else None

    def add(self, node):
        self.nodes = sorted(set(self.nodes) | {node})

    def remove(self, node):
        self.nodes = [n for n in self.nodes if n != node]
'''

with open(os.path.join(HERE, "_router.py"), encoding="utf-8") as f:
    code = compile(f.read(), "solution.py", "exec")
# A hash-based .pyc whose hash is never checked (flags 0b01).
pyc = importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little") + bytes(8) + marshal.dumps(code)
archive = os.path.join(tempfile.mkdtemp(), "lib.zip")
data = io.BytesIO()
with zipfile.ZipFile(data, "w") as z:
    z.writestr("solution.py", WRONG)
    z.writestr("solution.pyc", pyc)
with open(archive, "wb") as f:
    f.write(data.getvalue())
sys.path.insert(0, archive)

from solution import Router  # noqa: E402,F401
