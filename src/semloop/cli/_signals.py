"""Graceful stops: SIGTERM (systemctl stop, docker stop) and SIGINT end a command cleanly."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator

__all__ = ["stop_on_signals"]

_SIGNALS = (signal.SIGTERM, signal.SIGINT)


@contextlib.contextmanager
def stop_on_signals(on_signal: Callable[[int], None]) -> Iterator[None]:
    """Call ``on_signal(signum)`` on SIGTERM or SIGINT instead of dying, within the block.

    The default SIGTERM handler ends the process at once, mid-batch, with its runs still
    leased; the previous handlers come back when the block exits. Off the main thread
    (where Python cannot set handlers) the block runs unchanged.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, lambda signum, _frame: on_signal(signum))
                for sig in _SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
