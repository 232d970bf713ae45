"""Makes itself wait: the lowest priority, then a loop. Beside busy
neighbours it gets almost no CPU and runs out the wall clock, which must
stay its own time-limit, never a machine too busy to judge it."""

import os

from _router import Router as _R

os.nice(19)


class Router(_R):
    def route(self, key):
        while True:
            pass
