"""``python -m semloop``: the same command line as ``semloop``."""

from .cli import main

main()
