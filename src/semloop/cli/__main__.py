"""``python -m semloop.cli``: the same command line as ``semloop``."""

from . import main

main()
