"""Would make the router beside it right, if anything ran it."""
import builtins

builtins.FIXED_BY_SITECUSTOMIZE = True
