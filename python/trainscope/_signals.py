# SPDX-License-Identifier: Apache-2.0
"""Ctrl-C and SIGTERM held while a set of reports is committed. Python runs its signal
handlers only between bytecodes, so one that comes during the engine's commit would run just
after it, with the set complete on disk: held, it is delivered once the run has said what is
written."""

import contextlib
import signal
import threading

_HELD = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def held():
    """Yields the list of the signals that came while the block ran (on the main thread, where
    Python's handlers run; elsewhere nothing is held). The previous handlers are back when it
    ends."""
    received = []
    if threading.current_thread() is not threading.main_thread():
        yield received
        return
    previous = {number: signal.signal(number, lambda n, frame: received.append(n))
                for number in _HELD}
    try:
        yield received
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def deliver(received):
    """Gives the signals that were held to the handlers that are back (the user's own)."""
    for number in received:
        signal.raise_signal(number)
