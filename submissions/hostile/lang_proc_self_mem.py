"""A write into the process's own memory through /proc/self/mem, where a
wrong route's code object would be patched: the sandbox never lets the
file open for writing, so nothing is patched: runtime-error."""

from _router import Router, h32  # noqa: F401

with open("/proc/self/mem", "r+b") as mem:
    mem.seek(id(Router.route.__code__))
    mem.write(mem.read(1))
