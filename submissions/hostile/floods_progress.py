"""Answers no case: writes valid progress messages on the protocol's reply
descriptor without end, claiming to be at operation 7 of every case. The
grader must stop it at the case's deadline, not wait for a reply forever."""
import os

from _router import Router as _R

LINE = b'{"progress": {"op_index": 7}}\n' * 1000


class Router(_R):
    def route(self, key):
        while True:
            os.write(4, LINE)
