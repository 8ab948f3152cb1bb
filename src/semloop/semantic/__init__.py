"""The judged loop detector's old home, kept for existing imports: it now lives in
:mod:`semloop.evaluate.loop`, whose public names this re-exports.

A package rather than ``semantic.py`` on purpose: with the old file path gone, git sees
the move as a rename and carries edits made to ``semantic.py`` on other branches over to
``evaluate/loop.py`` when they are merged.
"""

from ..evaluate.loop import *  # exactly loop's __all__
from ..evaluate.loop import __all__ as __all__
