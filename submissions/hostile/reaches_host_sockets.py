"""Tries every way out to a process of the host: the UNIX socket the test
listens on (by path, and by abstract name), a socket to the hypervisor
(AF_VSOCK), the kernel's routing and audit sockets (AF_NETLINK) and raw
packets (AF_PACKET). Correct otherwise, so what it reached shows as its
wrong answer."""
import socket

from _router import Router as _Correct, h32, hints  # noqa: F401

HINTS = hints()
ATTEMPTS = [
    ("unix path", socket.AF_UNIX, socket.SOCK_STREAM, 0, HINTS["unix_path"]),
    ("unix abstract", socket.AF_UNIX, socket.SOCK_STREAM, 0, "\0" + HINTS["unix_abstract"]),
    ("vsock", 40, socket.SOCK_STREAM, 0, (2, 1234)),  # AF_VSOCK to the host's CID
    ("netlink", 16, socket.SOCK_RAW, 0, None),  # AF_NETLINK, NETLINK_ROUTE
    ("packet", 17, socket.SOCK_RAW, 0, None),  # AF_PACKET
]

REFUSED = []
REACHED = []
for name, family, kind, proto, address in ATTEMPTS:
    try:
        s = socket.socket(family, kind, proto)
        if address is not None:
            s.settimeout(0.5)
            s.connect(address)
        REACHED.append(name)
    except OSError:
        REFUSED.append(name)


class Router(_Correct):
    def route(self, key):
        if REACHED:
            return "reached: " + ", ".join(REACHED)
        return "refused: " + ", ".join(REFUSED)
