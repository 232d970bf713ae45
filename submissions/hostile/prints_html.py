"""Answers and prints live HTML, hoping a results.json shows it as such."""

import sys

from _router import Router as _R

HTML = '<img src=x onerror=alert(1)><a href="javascript:alert(2)">x</a><script>alert(3)</script>'


class Router(_R):
    def route(self, key):
        print(HTML)
        print(HTML, file=sys.stderr)
        return HTML
