"""rendezvous-grader's Python driver.

Loads a learner's module, builds Router(*args) (or calls solve(args, ops)),
replays each case's operations and answers on the protocol descriptors.
The protocol is documented in the project's docs/protocol.md.

File descriptors: 3 requests in, 4 responses out, 5 progress queries in.
Standard output and error belong to the learner; the grader captures them.
"""

# Only modules that cost nothing to import: every session pays for them
# before the learner's code runs, and json, re, threading and traceback
# took 17 ms (the interpreter itself starts in 7). Nothing is imported
# later either: by then the learner's folder is on sys.path, where a file
# of theirs named like a module of the standard library would be taken
# for it.
import _thread
import importlib
import os
import select
import sys

try:
    from importlib._bootstrap import module_from_spec
    from importlib._bootstrap_external import (
        BYTECODE_SUFFIXES, EXTENSION_SUFFIXES, FileFinder, SOURCE_SUFFIXES, SourceFileLoader,
        spec_from_file_location)
except ImportError:  # where the import system is laid out otherwise
    from importlib.machinery import (
        BYTECODE_SUFFIXES, EXTENSION_SUFFIXES, FileFinder, SOURCE_SUFFIXES, SourceFileLoader)
    from importlib.util import module_from_spec, spec_from_file_location

REQUESTS, RESPONSES, CONTROL = 3, 4, 5
PROTOCOL = 1

# The operation index under way: -1 is the constructor, None is solve() or
# h32() where no single operation is running. A list, so a write is cheap.
current = [-1]
write_lock = _thread.allocate_lock()


def json_codec():
    """json.dumps (compact, UTF-8, no NaN) and json.loads from the json
    package's C accelerator alone, whose own modules import re; the
    package itself where the accelerator is missing or answers otherwise."""
    try:
        import _json

        class Context:
            strict = True
            object_hook = object_pairs_hook = None
            parse_float, parse_int = float, int

            @staticmethod
            def parse_constant(name):
                raise ValueError(f"{name} is not JSON")

        def refuse(value):
            raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")

        def dumps(value):
            # A fresh encoder each time: its markers (for cycles) are left
            # behind by an encoding that raised.
            encoder = _json.make_encoder(
                {}, refuse, _json.encode_basestring, None, ":", ",", False, False, False)
            return "".join(encoder(value, 0))

        scan = _json.make_scanner(Context)

        def loads(text):
            text = text.strip()
            try:
                value, end = scan(text, 0)
            except StopIteration:
                end = -1
            if end != len(text):
                raise ValueError("not one JSON value")
            return value

        probe = {"a": [1, 2.5, None, True, "é\n\"\u2028"], "b": {}}
        if dumps(probe) != '{"a":[1,2.5,null,true,"é\\n\\"\u2028"],"b":{}}' or loads(dumps(probe)) != probe:
            raise ValueError("the accelerator answers otherwise")
        return dumps, loads
    except Exception:
        import json
        return (lambda value: json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False),
                json.loads)


dumps, loads = json_codec()


def encode(message):
    # NaN and the infinities are not JSON: refused here, they are reported as
    # the learner's value instead of breaking the line.
    return (dumps(message) + "\n").encode()


def safe_text(thing, conversion=str, limit=200):
    """str() or repr() of a learner's object, which may itself raise or
    take pages: never the driver's failure."""
    try:
        if conversion is repr and isinstance(thing, (set, frozenset)):
            # A set's order changes with the process's hash seed.
            text = "{" + ", ".join(sorted(safe_text(t, repr) for t in thing)) + "}"
        else:
            text = conversion(thing)
        # Cut before anything else is done with it: a message may be huge.
        text = str(text)[:limit + 64]
    except BaseException:
        return f"<{type(thing).__name__} object that cannot be shown>"
    text = without_addresses(text)
    return text if len(text) <= limit else text[:limit] + "..."


def without_addresses(text):
    """An object's address (" at 0x7f...") differs from run to run; a report
    may not."""
    parts = text.split(" at 0x")
    kept = [parts[0]]
    for part in parts[1:]:
        digits = len(part) - len(part.lstrip("0123456789abcdefABCDEF"))
        kept.append(part[digits:] if digits else " at 0x" + part)
    return "".join(kept)


def send(message, ops=None):
    try:
        data = encode(message)
    except (TypeError, ValueError, RecursionError):
        # Rare: find the culprit only now, so the common case pays one dump.
        data = encode(not_json_error(message, ops or []))
    with write_lock:
        view = memoryview(data)
        while view:
            view = view[os.write(RESPONSES, view):]


def flush_learner_output():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass


def answer_progress_queries():
    """Runs on its own thread, so it answers even while learner code loops.
    The grader makes the descriptor non-blocking, hence the select."""
    while True:
        select.select([CONTROL], [], [])
        try:
            data = os.read(CONTROL, 64)
        except BlockingIOError:
            continue
        except OSError:
            return
        if not data:
            return
        send({"progress": {"op_index": current[0]}})


# The grader reads an error's message and traceback up to 8192 characters
# each (docs/protocol.md): longer ones are cut here, so that an enormous
# exception stays the learner's runtime error.
CLIP = 8192


def clip(text, keep_end=False):
    if len(text) <= CLIP:
        return text
    cut = f" ... ({len(text) - CLIP} characters cut) ... "
    return cut + text[-CLIP:] if keep_end else text[:CLIP] + cut


def frames_of(tb):
    """(file, line, function) of each frame of a traceback, outermost
    first, as traceback.extract_tb gives them."""
    frames = []
    while tb is not None:
        code = tb.tb_frame.f_code
        frames.append((code.co_filename, tb.tb_lineno, code.co_name))
        tb = tb.tb_next
    return frames


sources = {}

# What a traceback shows, whatever the learner's program does: its
# innermost frames (a recursion 50,000 deep raising at the bottom must not
# cost 50,000 source lines) and the start of each line (one line may be a
# megabyte). Building it costs the learner's CPU time, so it stays small
# enough never to turn a runtime error into a time limit.
FRAMES = 20
LINE_CHARS = 200


def source_line(filename, lineno):
    """The line `lineno` of a learner's file, stripped and cut to
    LINE_CHARS, as linecache would read it; None when it cannot be read.
    Only the first 8 MiB are read (the most an entry may have). Lines end
    where Python ends them, at a line feed, a carriage return or both
    (bytes.splitlines), never at the other breaks str.splitlines knows (a
    form feed, U+2028 in a string)."""
    if filename not in sources:
        try:
            with open(filename, "rb") as f:
                sources[filename] = f.read(8 << 20).splitlines()
        except Exception:  # MemoryError too: a program at its limit
            sources[filename] = None
    lines = sources[filename]
    if lines is None or lineno is None or not 0 < lineno <= len(lines):
        return None
    raw = lines[lineno - 1].lstrip()
    text = raw[:4 * LINE_CHARS].decode("utf-8", "replace").rstrip()
    if len(text) > LINE_CHARS or len(raw) > 4 * LINE_CHARS:
        text = text[:LINE_CHARS] + " ..."
    return text


def window(text, offset):
    """A long line cut to LINE_CHARS around `offset` (1-based), and the
    caret's offset within what is kept."""
    if len(text) <= LINE_CHARS:
        return text, offset
    start = max(0, (offset or 1) - 1 - LINE_CHARS // 2)
    kept = text[start:start + LINE_CHARS]
    prefix = "... " if start else ""
    suffix = " ..." if start + LINE_CHARS < len(text) else ""
    return prefix + kept + suffix, offset and offset - start + len(prefix)


def describe(exc, learner_dir):
    """An exception as the protocol's error object, the traceback trimmed to
    the learner's own files and to its innermost FRAMES frames. Bytecode
    refused anywhere behind it is the submission's compile error."""
    refused = refusal_in(exc)
    if refused is not None:
        return {"type": "CompileError", "message": clip(str(refused)), "traceback": "",
                "line": None, "errno": None}
    # Compared by real path: a folder reached through a link may appear
    # either way in a frame. Each file is resolved once, however many
    # frames it has.
    real_dir = os.path.realpath(learner_dir)
    named = {}

    def learners(filename):
        if filename not in named:
            real = os.path.realpath(filename)
            named[filename] = (
                os.path.relpath(real, real_dir) if real.startswith(real_dir + os.sep) else None)
        return named[filename]

    frames = [
        (filename, lineno, name) for filename, lineno, name in frames_of(exc.__traceback__)
        if learners(filename) is not None
    ]
    lines = []
    if len(frames) > FRAMES:
        lines.append(f"  ... {len(frames) - FRAMES} outer frames left out ...")
    for filename, lineno, function in frames[-FRAMES:]:
        lines.append(f'  File "{learners(filename)}", line {lineno}, in {clip(function)}')
        text = source_line(filename, lineno)
        if text:
            lines.append(f"    {text}")
    line = frames[-1][1] if frames else None
    message = safe_text(exc, limit=CLIP)
    if isinstance(exc, SyntaxError) and exc.filename and os.path.isabs(exc.filename):
        # Compile errors carry their place themselves, not in a frame.
        name = os.path.relpath(os.path.realpath(exc.filename), real_dir)
        line, message = exc.lineno, safe_text(exc.msg, limit=CLIP)
        lines.append(f'  File "{name}", line {exc.lineno}')
        if isinstance(exc.text, str) and exc.text:
            text, offset = window(exc.text.rstrip("\n"), exc.offset)
            lines.append("    " + text)
            if isinstance(offset, int) and offset > 0:
                lines.append("    " + " " * (offset - 1) + "^")
    return {
        "type": clip(type(exc).__name__),
        "message": clip(message),
        # The innermost frames are the ones that tell.
        "traceback": clip("\n".join(lines), keep_end=True),
        "line": line,
        # An OS error's number tells a limit (EFBIG, ENOSPC) from a bug.
        "errno": exc.errno if isinstance(exc, OSError) else None,
    }


def not_json(value):
    try:
        dumps(value)
        return False
    except (TypeError, ValueError, RecursionError):
        return True


def not_json_error(message, ops):
    """The reply for an output holding a value JSON cannot carry: the first
    such value is the first thing that went wrong."""
    output = message.get("output", [])
    bad = next((i for i, value in enumerate(output) if not_json(value)), None)
    if bad is None:
        value, what = message, "the reply"
        bad = len(output)
    else:
        by_class = isinstance(api_class, type)
        value, what = output[bad], (ops[bad][0] if bad < len(ops) and by_class else "solve") + " returned"
    return {
        "id": message.get("id"),
        "output": output[:bad],
        "error": {
            "type": "TypeError",
            "message": f"{what} {safe_text(value, repr)} ({type(value).__name__}), which is not a JSON value",
            "traceback": "",
            "line": None,
            "op_index": bad,
            "errno": None,
        },
    }


class MissingMethod(AttributeError):
    """An operation the Router does not have, found when it is called (a
    method set in __init__ counts): the grader's API hint rests on it."""


def not_a_list(answers):
    """The error for a solve() that returned something but a list, placed
    at the function's first line (the return is not in any frame)."""
    hint = ""
    if answers is None:
        hint = ": a function that ends without return gives None"
    elif isinstance(answers, (tuple, range)) or hasattr(answers, "__next__"):
        hint = "; make it one with list(...)"
    code = getattr(api_solve, "__code__", None)
    return {
        "type": "TypeError",
        "message": "solve(args, ops) must return a list of answers, one per operation; "
        f"it returned {safe_text(answers, repr, 80)} ({type(answers).__name__}){hint}",
        "traceback": "",
        "line": code.co_firstlineno if code else None,
        "op_index": None,
        "errno": None,
    }


class SiteOnDemand:
    """The interpreter starts with -S, and site's work is done here without
    running the code lines of .pth files or sitecustomize: those may cost
    tens of milliseconds at every start (one that imports certifi costs
    30 ms), more than grading the samples, and a learner's module rarely
    needs them. Every folder site would add is added, in site's order, by
    site itself; the code it would have run waits at the end of
    sys.meta_path, and runs the first time an import finds nothing without
    it, which is then tried again."""

    deferred = []  # (.pth line, site folder, file name), in site's order
    pending = True
    site_path = []  # sys.path as site left it

    @classmethod
    def start(cls):
        import site
        customize = site.execsitecustomize
        site.exec = cls.defer
        site.execsitecustomize = lambda: cls.deferred.append((customize, None, None))
        try:
            site.main()
        finally:
            del site.exec
            site.execsitecustomize = customize
        cls.site_path = list(sys.path)
        sys.meta_path.append(cls)

    @classmethod
    def defer(cls, line):
        # Called as exec(line) from site.addpackage, whose locals some .pth
        # lines read through sys._getframe(1): keep the ones they read.
        caller = sys._getframe(1).f_locals
        cls.deferred.append((line, caller.get("sitedir"), caller.get("name")))

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if not cls.pending or path is not None:
            return None
        cls.pending = False
        sys.meta_path.remove(cls)
        cls.run_deferred()
        importlib.invalidate_caches()
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = find(name, path, target) if find else None
            if spec is not None:
                return spec
        return None

    @staticmethod
    def run_deferred():
        failed = set()
        # What Python's start would have seen: sys.path before the
        # learner's folder was put first. There a sitecustomize.py (or a
        # module a .pth line imports) of the learner's would be taken for
        # the site's, which Python never runs from a script's folder.
        learners = [entry for entry in sys.path if entry not in SiteOnDemand.site_path]
        sys.path[:] = [entry for entry in sys.path if entry not in learners]
        try:
            # `sitedir` and `name` are locals here as in site.addpackage,
            # where some lines read them through sys._getframe(1).
            for line, sitedir, name in SiteOnDemand.deferred:
                if callable(line):
                    line()
                elif name not in failed:
                    try:
                        exec(line)
                    except Exception as exc:
                        # As site does: the error shown, the rest of the file skipped.
                        failed.add(name)
                        print(f"Error processing a line of {name}: {exc!r}", file=sys.stderr)
        finally:
            sys.path[:] = learners + [entry for entry in sys.path if entry not in learners]


class SourceOnly(SourceFileLoader):
    """A learner's module compiled from its source, every time: never from
    bytecode beside it. An unchecked-hash .pyc in __pycache__ (or one whose
    recorded time and size were forged) would otherwise run in place of
    the source the grader was given."""

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        return self.source_to_code(self.get_data(path), path)


class LearnerFinder(FileFinder):
    """Finds modules in the learner's folders as source only: a sourceless
    .pyc or a compiled extension module there is not what was submitted
    (an extension would even be taken before the .py of the same name).
    Finding one instead of a source says so."""

    compiled = tuple(BYTECODE_SUFFIXES) + tuple(EXTENSION_SUFFIXES)

    def find_spec(self, fullname, target=None):
        spec = super().find_spec(fullname, target)
        if spec is not None:
            return spec
        tail = fullname.rpartition(".")[2]
        # The listing the finder has just read: no further system call.
        names = getattr(self, "_path_cache", None) or ()
        for suffix in self.compiled:
            if tail + suffix in names:
                raise BytecodeRefused(
                    f"{tail + suffix} is compiled code, which the grader does not run: "
                    f"submit the source, {tail}.py, instead",
                    name=fullname, path=os.path.join(self.path, tail + suffix))
        return None


class BytecodeRefused(ImportError):
    """Bytecode the learner's program tried to run: never compiled here
    from a source the grader was given. An ImportError, so that an archive
    holding both a module's bytecode and its source imports the source, as
    the folder does."""


class SourceOnlyEverywhere:
    """Holds every import, wherever it is found, to source: an archive on
    sys.path (a .zip, .egg or .whl, or a zip under any name or appended to
    another file), a path hook or meta-path finder of the learner's, a
    zipimporter or SourcelessFileLoader used directly, and marshal.loads
    of bytes read from a data file all unmarshal their code, which an
    audit hook (Python 3.8) sees and no code can remove. The interpreter's
    own bytecode stays allowed: what the import system reads beside a
    source in the folders Python was started with, when it is byte for
    byte that file's. A code object built from bytes (types.CodeType,
    code.replace) is refused alike.

    So is native code: ctypes and cffi call foreign functions and write
    through raw pointers where no audit event sees them (a code object
    patched in memory, a C function called by address), so the modules
    behind them are never loaded, however asked (import, importlib,
    _imp.create_dynamic all raise "import"), and no extension module is
    loaded from outside the folders Python was started with."""

    watched = frozenset(("marshal.loads", "marshal.load", "code.__new__", "import"))
    native = {"_ctypes": "ctypes", "_cffi_backend": "cffi"}  # module: what learners import

    def __init__(self, learner_dir):
        from importlib._bootstrap_external import _compile_bytecode
        self.compile_bytecode = _compile_bytecode.__code__
        # The call of _compile_bytecode whose marshal.loads of the
        # interpreter's own bytecode was let through last.
        self.unmarshalling = None
        self.learner_dir = os.path.realpath(learner_dir)
        # The folders Python was started with, but this driver's own (a
        # scratch folder a program might write in).
        own = os.path.dirname(os.path.realpath(__file__))
        self.trusted = tuple(
            os.path.realpath(entry) + os.sep for entry in sys.path
            if os.path.isabs(entry) and os.path.isdir(entry)
            and os.path.realpath(entry) != own
            and not self.inside_learners(os.path.realpath(entry)))

    def inside_learners(self, real):
        return real == self.learner_dir or real.startswith(self.learner_dir + os.sep)

    def __call__(self, event, args):
        # Called for every audited event (open, id, ...): the rest return here.
        if event not in self.watched:
            return
        if event == "import":
            self.check_import(args[0], args[1])
        elif event == "marshal.loads":
            caller = sys._getframe(1)
            if caller.f_code is self.compile_bytecode and self.interpreters_own(caller, args[0]):
                self.unmarshalling = caller
                return
            self.refuse(self.what(caller), caller)
        elif event == "marshal.load":
            self.refuse("bytecode read with marshal.load", sys._getframe(1))
        elif event == "code.__new__":
            # Pythons 3.8 and 3.9 audit each code object of the bytecode
            # they unmarshal as code.__new__ (3.8 with no marshal.loads
            # before it), from the import system's _compile_bytecode: the
            # interpreter's own bytecode is let through as above, checked
            # once per call. (The frame is kept, so that no other call can
            # take its place.)
            caller = sys._getframe(1)
            if caller is self.unmarshalling:
                return
            if caller.f_code is self.compile_bytecode and self.interpreters_own(
                    caller, caller.f_locals.get("data")):
                self.unmarshalling = caller
                return
            # Python 3.8's zipimport unmarshals an archive's bytecode with
            # no marshal.loads event: named as the file it is, when found.
            self.refuse(self.what(caller, "a code object built from bytes "
                                          "(types.CodeType, code.replace)"), caller)

    def check_import(self, name, filename):
        # An extension's init function is named for the last part of its
        # name, so "x._ctypes" is _ctypes too.
        if isinstance(name, str) and name.rpartition(".")[2] in self.native:
            self.refuse_with(
                f"{self.native[name.rpartition('.')[2]]} runs native code and reaches memory "
                f"outside Python, which the grader does not run: write it in Python (for 32-bit "
                f"arithmetic, mask with & 0xFFFFFFFF)", sys._getframe(2))
        if isinstance(filename, str) and filename.endswith(tuple(EXTENSION_SUFFIXES)):
            real = os.path.realpath(filename)
            if not real.startswith(self.trusted) or self.inside_learners(real):
                self.refuse(self.shown(filename), sys._getframe(2))

    def interpreters_own(self, frame, data):
        path = frame.f_locals.get("bytecode_path")
        if not isinstance(path, str):
            return False
        real = os.path.realpath(path)
        if not real.startswith(self.trusted) or self.inside_learners(real):
            return False
        try:
            with open(real, "rb") as f:
                return f.read()[16:] == bytes(data)
        except (OSError, TypeError):
            return False

    def what(self, frame, otherwise="bytecode read with marshal.loads"):
        """The bytecode's file, as the learner knows it, else `otherwise`."""
        for _ in range(8):
            if frame is None:
                break
            found = frame.f_locals
            archive = getattr(found.get("self"), "archive", None)
            if isinstance(archive, str) and isinstance(found.get("fullpath"), str):
                return f"{self.shown(archive)}: {found['fullpath']}"
            if isinstance(found.get("bytecode_path"), str):
                return self.shown(found["bytecode_path"])
            frame = frame.f_back
        return otherwise

    def shown(self, path):
        real = os.path.realpath(path)
        return os.path.relpath(real, self.learner_dir) if self.inside_learners(real) else os.path.basename(path)

    def refuse(self, what, frame):
        self.refuse_with(
            f"{what} is compiled code, which the grader does not run: it runs only what it "
            f"compiles from your source; submit the .py files themselves, unpacked in your folder",
            frame)

    def refuse_with(self, message, frame):
        # Where in the learner's code, when it is theirs that asked.
        while frame is not None:
            name = frame.f_code.co_filename
            if os.path.isabs(name) and self.inside_learners(os.path.realpath(name)):
                message += f" ({os.path.relpath(os.path.realpath(name), self.learner_dir)}, line {frame.f_lineno})"
                break
            frame = frame.f_back
        raise BytecodeRefused(message)

    @staticmethod
    def install(learner_dir):
        if hasattr(sys, "addaudithook"):
            guard = SourceOnlyEverywhere(learner_dir)
            sys.addaudithook(guard)
            sys.modules.setdefault("ctypes", numeric_ctypes(guard))
            return
        # Python 3.7 has no audit hooks: no archive is searched at all, and
        # the import system's marshal.loads is held to the interpreter's
        # own files. A program that calls the C functions behind them
        # itself is not held.
        import marshal
        import zipimport
        sys.path_hooks[:] = [h for h in sys.path_hooks if h is not zipimport.zipimporter]
        guard = SourceOnlyEverywhere(learner_dir)
        loads = marshal.loads

        def guarded(data):
            caller = sys._getframe(1)
            if not (caller.f_code is guard.compile_bytecode and guard.interpreters_own(caller, data)):
                guard.refuse(guard.what(caller), caller)
            return loads(data)
        marshal.loads = guarded


# ctypes's fixed-width integers: (bits, signed).
CTYPES_INTEGERS = {
    "c_int8": (8, True), "c_uint8": (8, False), "c_byte": (8, True), "c_ubyte": (8, False),
    "c_int16": (16, True), "c_uint16": (16, False), "c_short": (16, True),
    "c_ushort": (16, False), "c_int32": (32, True), "c_uint32": (32, False),
    "c_int": (32, True), "c_uint": (32, False), "c_int64": (64, True),
    "c_uint64": (64, False), "c_long": (64, True), "c_ulong": (64, False),
    "c_longlong": (64, True), "c_ulonglong": (64, False), "c_size_t": (64, False),
    "c_ssize_t": (64, True),
}


def numeric_ctypes(guard):
    """ctypes as a router uses it, in pure Python: fixed-width integers
    whose value wraps as C's do (`ctypes.c_uint32(h * prime).value`). The
    real module calls native code and writes memory where no audit event
    sees it, so it is never loaded; anything else of it asked for is the
    learner's compile error, naming the line."""
    import types
    module = types.ModuleType("ctypes", "ctypes's integer types, for a submission")

    def integer(name, bits, signed):
        mask = (1 << bits) - 1

        def wrap(value):
            if not isinstance(value, int):
                raise TypeError(f"int expected instead of {type(value).__name__}")
            value &= mask
            return value - (1 << bits) if signed and value >> (bits - 1) else value

        class Integer:
            __slots__ = ("_value",)

            def __init__(self, value=0):
                self._value = wrap(value)

            @property
            def value(self):
                return self._value

            @value.setter
            def value(self, value):
                self._value = wrap(value)

            def __repr__(self):
                return f"{name}({self._value})"

        Integer.__name__ = Integer.__qualname__ = name
        return Integer

    for name, (bits, signed) in CTYPES_INTEGERS.items():
        setattr(module, name, integer(name, bits, signed))

    def __getattr__(attribute):
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        guard.refuse_with(
            f"ctypes.{attribute} runs native code or reaches memory outside Python, which the "
            f"grader does not run: only ctypes's integer types (c_uint32 ...) are there for a "
            f"submission; write the rest in Python (for 32-bit arithmetic, mask with & 0xFFFFFFFF)",
            sys._getframe(1))

    module.__getattr__ = __getattr__
    return module


def refusal_in(exc):
    """The bytecode refusal behind `exc` (raised, or what it was raised
    from): a load that failed for it is told as a compile error."""
    seen = 0
    while exc is not None and seen < 32:
        if isinstance(exc, BytecodeRefused):
            return exc
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


def learner_modules_from_source(learner_dir):
    """Every path in the learner's folder (its own, and its packages') is
    searched by a LearnerFinder; the rest of sys.path as Python would."""
    real_dir = os.path.realpath(learner_dir)
    learner_hook = LearnerFinder.path_hook((SourceOnly, SOURCE_SUFFIXES))

    def hook(entry):
        real = os.path.realpath(entry or ".")
        if real != real_dir and not real.startswith(real_dir + os.sep):
            raise ImportError("not the learner's folder")  # the next hook's
        return learner_hook(entry)

    sys.path_hooks.insert(0, hook)
    sys.path_importer_cache.clear()


def load(path):
    learner_dir = os.path.dirname(path)
    learner_modules_from_source(learner_dir)
    SourceOnlyEverywhere.install(learner_dir)
    sys.path.insert(0, learner_dir)
    name = os.path.splitext(os.path.basename(path))[0]
    spec = spec_from_file_location(name, path, loader=SourceOnly(name, path))
    module = module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def run_case(case_id, case, api, learner_dir):
    args, ops = case
    current[0] = -1
    output = []
    try:
        if api == "solve":
            current[0] = None
            answers = api_solve(args, ops)
            if not isinstance(answers, list):
                flush_learner_output()
                return {"id": case_id, "output": [], "error": not_a_list(answers)}
            output = answers
        else:
            router = api_class(*args)
            append = output.append
            for i, op in enumerate(ops):
                current[0] = i
                method = getattr(router, op[0], None)
                if not callable(method):
                    raise MissingMethod(f"Router has no method {op[0]}")
                append(method(*op[1:]))
    except BaseException as exc:  # SystemExit too: the learner's, not ours
        flush_learner_output()
        error = describe(exc, learner_dir)
        error["op_index"] = current[0]
        return {"id": case_id, "error": error, "output": output}
    flush_learner_output()
    return {"id": case_id, "output": output}


def run_hash(case_id, texts, h32, learner_dir):
    current[0] = None
    try:
        values = [h32(t) for t in texts]
    except BaseException as exc:
        flush_learner_output()
        return {"id": case_id, "error": describe(exc, learner_dir)}
    flush_learner_output()
    return {"id": case_id, "h32": [hash_value(v) for v in values]}


def hash_value(value):
    """An int in 64 bits as JSON; anything else (a bool too, though an int
    to Python) as Python writes it, so that its type shows, and an int
    past 64 bits (an unmasked hash) as its digits, which JSON readers
    would round to a float: past 100 digits, by its size."""
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            text = repr(value)
        except Exception:
            return type(value).__name__
        return text if len(text) <= 100 else text[:100] + "..."
    if -(2**63) <= value < 2**64:
        return int(value)
    if value.bit_length() > 330:
        return "an int of %d bits" % value.bit_length()
    return str(int(value))


def arity(cls, name):
    """The arguments `cls`'s method `name` takes (not self), as
    {"least", "most"} ("most" None past *args), read from its code without
    calling anything of the learner's; None when it is not a plain
    function, a static or a class method of the class (or its bases)."""
    try:
        raw = next(k.__dict__[name] for k in type.__getattribute__(cls, "__mro__") if name in k.__dict__)
    except (StopIteration, TypeError, AttributeError):
        return None
    bound = 1
    if type(raw) is staticmethod:
        raw, bound = raw.__func__, 0
    elif type(raw) is classmethod:
        raw = raw.__func__
    code = raw.__code__ if type(raw) is type(arity) else None
    if code is None:
        return None
    defaults = len(raw.__defaults__ or ())
    most = code.co_argcount - bound
    least = most - defaults
    if least < 0:
        return None
    return {"least": least, "most": None if code.co_flags & 0x04 else most}


def main():
    global api_class, api_solve
    if sys.flags.no_site:
        SiteOnDemand.start()
    # Before any code of the learner's: a death before this is not theirs.
    send({"loading": {"protocol": PROTOCOL}})
    path = os.path.abspath(sys.argv[1])
    learner_dir = os.path.dirname(path)
    # A thread of the interpreter's own, as a daemon one: it never holds
    # the process open.
    _thread.start_new_thread(answer_progress_queries, ())
    try:
        module = load(path)
    except BaseException as exc:
        flush_learner_output()
        send({"load_error": describe(exc, learner_dir)})
        return
    flush_learner_output()
    api_class = getattr(module, "Router", None)
    api_solve = getattr(module, "solve", None)
    h32 = getattr(module, "h32", None)
    if isinstance(api_class, type):
        api = "class"
    elif callable(api_solve):
        api = "solve"
    else:
        send({"load_error": {
            "type": "MissingApi",
            "message": "the module defines neither a class Router nor a function solve(args, ops)",
            "traceback": "",
            "line": None,
        }})
        return
    # The Router's public methods, so the grader can tell a learner whose
    # class belongs to another challenge.
    methods = sorted(
        name for name in dir(api_class)
        if not name.startswith("_") and callable(getattr(api_class, name, None))
    ) if api == "class" else []
    method_arity = {}
    for name in methods:
        found = arity(api_class, name)
        if found is not None:
            method_arity[name] = found
    send({"hello": {
        "protocol": PROTOCOL,
        "api": api,
        "h32": callable(h32),
        "methods": methods,
        "constructor_arity": arity(api_class, "__init__") if api == "class" else None,
        "method_arity": method_arity,
        "runtime": "python " + sys.version.split()[0],
    }})
    with os.fdopen(REQUESTS, "rb") as requests:
        for line in requests:
            request = loads(line.decode())
            if "case" in request:
                send(run_case(request["id"], request["case"], api, learner_dir), request["case"][1])
            elif "h32" in request and callable(h32):
                send(run_hash(request["id"], request["h32"], h32, learner_dir))
            else:
                send({"id": request.get("id"), "unsupported": sorted(request)})


api_class = api_solve = None

if __name__ == "__main__":
    main()
