"""Loops as the module loads, before any case: its own load time-out,
however busy it keeps the CPU, never a fault of the machine."""

while True:
    pass
