"""A channel between two sandboxes through locks on files both may read
(the standard library's modules): one bit per file, locked for 1, and a
last file locked when the bits are set (not graded by itself)."""
import fcntl
import os
import time

CHARS = 6
BITS = 8 * CHARS


def _files():
    lib = os.path.dirname(os.__file__)
    names = sorted(f for f in os.listdir(lib) if f.endswith(".py"))[: BITS + 1]
    return [os.path.join(lib, n) for n in names]


def send(text, hold):
    """Locks the bits of `text` (its first CHARS bytes), then the ready
    file, and holds them for `hold` seconds."""
    data = text.encode("latin-1", "replace")[:CHARS].ljust(CHARS, b" ")
    held = []
    files = _files()
    for i, path in enumerate(files[:BITS]):
        if data[i // 8] >> (i % 8) & 1:
            fd = os.open(path, os.O_RDONLY)
            fcntl.flock(fd, fcntl.LOCK_SH)
            held.append(fd)
    fd = os.open(files[BITS], os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_SH)
    held.append(fd)
    time.sleep(hold)
    for fd in held:
        os.close(fd)


def _locked(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


def listen(wait):
    """What a sender is sending, if one starts within `wait` seconds."""
    files = _files()
    until = time.monotonic() + wait
    while time.monotonic() < until:
        if _locked(files[BITS]):
            data = bytearray(CHARS)
            for i, path in enumerate(files[:BITS]):
                if _locked(path):
                    data[i // 8] |= 1 << (i % 8)
            return data.decode("latin-1")
        time.sleep(0.02)
    return None
