"""Closes its own stdout and stderr at import; otherwise correct."""
import os

from _router import Router, h32  # noqa: F401

os.close(1)
os.close(2)
