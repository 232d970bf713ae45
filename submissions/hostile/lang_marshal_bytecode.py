"""Bytecode of a correct router written to a data file and run with
marshal.loads and exec: what runs would not be the source the grader
shows. Refused by name, with where the program read it: compile-error."""

import marshal
import os
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

with open(os.path.join(HERE, "_router.py"), encoding="utf-8") as f:
    code = compile(f.read(), "solution.py", "exec")
blob = os.path.join(tempfile.mkdtemp(), "data.bin")
with open(blob, "wb") as f:
    f.write(marshal.dumps(code))
names = {}
with open(blob, "rb") as f:
    exec(marshal.loads(f.read()), names)
Router = names["Router"]
