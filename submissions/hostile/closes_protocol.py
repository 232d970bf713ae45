"""Closes the protocol's descriptors (requests, responses, progress) in
its first operation, then lingers: the grader must not wait for it."""
import os
import time

from _router import Router as _R


def _close_and_linger():
    for fd in (3, 4, 5):
        os.close(fd)
    time.sleep(3600)


class Router(_R):
    def route(self, key):
        _close_and_linger()

    def add(self, node):
        _close_and_linger()

    def remove(self, node):
        _close_and_linger()
