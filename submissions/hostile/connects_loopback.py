"""Tries to reach a port the test listens on at 127.0.0.1."""
import socket

from _router import Router as _R, hints


def reach():
    try:
        with socket.create_connection(("127.0.0.1", hints()["port"]), timeout=2) as s:
            s.sendall(b"leak")
        return "CONNECTED"
    except OSError as e:
        return "blocked: " + type(e).__name__


class Router(_R):
    def route(self, key):
        return reach()
