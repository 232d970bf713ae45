"""Wrong: loops forever when asked to route with no nodes (a time-limit),
and is correct otherwise: the grader must restart it for the other cases."""

from correct_class import Router as _Correct, h32  # noqa: F401


class Router(_Correct):
    def route(self, key):
        while not self.names:
            pass
        return super().route(key)
