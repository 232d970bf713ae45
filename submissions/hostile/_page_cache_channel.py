"""A channel between two sessions through the page cache of files both
may read (encodings of the standard library no program imports): one bit
per file, cached for 1 and evicted for 0 (posix_fadvise), and a last file
cached when the bits are set; read back with reads that may not wait for
the disk (RWF_NOWAIT), which fail where a page is not cached (not graded by itself)."""
import os
import time

CHARS = 4
BITS = 8 * CHARS


def _files():
    lib = os.path.join(os.path.dirname(os.__file__), "encodings")
    names = sorted(f for f in os.listdir(lib) if f.startswith("cp") and f.endswith(".py"))
    return [os.path.join(lib, n) for n in names[: BITS + 1]]


def _cache(path, keep):
    """Caches the file (reads it all) or evicts it; an advice the sandbox
    refuses is passed by."""
    fd = os.open(path, os.O_RDONLY)
    try:
        if keep:
            while os.read(fd, 1 << 16):
                pass
        else:
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            except OSError:
                pass
    finally:
        os.close(fd)


def _cached(path):
    """Whether the file's first page is cached: a read that must not wait
    for the disk (RWF_NOWAIT) fails with EAGAIN when it is not. (mincore
    tells nothing of a file the caller may not write.)"""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.preadv(fd, [bytearray(512)], 0, os.RWF_NOWAIT)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


def send(text):
    """Marks the bits of `text` (its first CHARS bytes), then the ready
    file."""
    data = text.encode("latin-1", "replace")[:CHARS].ljust(CHARS, b" ")
    files = _files()
    for i, path in enumerate(files[:BITS]):
        _cache(path, data[i // 8] >> (i % 8) & 1)
    _cache(files[BITS], True)


def receive():
    """What a sender marked, if the ready file is cached. A read that finds
    a page uncached starts reading it in: the ready file is evicted again
    once that is done, so that asking leaves no mark of its own."""
    files = _files()
    if not _cached(files[BITS]):
        time.sleep(0.05)
        _cache(files[BITS], False)
        return None
    data = bytearray(CHARS)
    for i, path in enumerate(files[:BITS]):
        if _cached(path):
            data[i // 8] |= 1 << (i % 8)
    return data.decode("latin-1")
