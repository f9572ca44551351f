"""The benches' worker processes: a pool that goes when its bench is stopped."""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import os
import signal
from typing import Any

_OWNER: list[int] = []  # the process whose pool it is (a forked worker inherits the handler)


def pool(processes: int, context: str | None = "spawn",
         **options: Any) -> multiprocessing.pool.Pool:
    """A process pool for a bench's `with`. A SIGTERM to the bench (kill, pkill, a closed
    terminal's session) then stops it as Ctrl+C does, so the `with` terminates the workers;
    by default the bench would die alone and leave them running, still loading the machine
    under the next measurement. context None: the platform's default start method."""
    _OWNER[:] = [os.getpid()]
    signal.signal(signal.SIGTERM, _stop)
    return multiprocessing.get_context(context).Pool(processes, **options)


def _stop(signum: int, frame: Any) -> None:
    """A worker unwinds (its engines are closed on the way out); the bench ends its workers
    itself, each wait bounded (a worker still there after 10 s is killed), and leaves at once.
    The pool's own terminate waits for its workers and threads with no bound: once, under the
    test suite's load, a bench stopped so was still waiting after 60 s."""
    if os.getpid() not in _OWNER:
        raise SystemExit(128 + signum)
    for _ in range(5):  # the pool replaces a worker that ends: end the replacements too
        children = multiprocessing.active_children()
        if not children:
            break
        for child in children:
            child.terminate()
        for child in children:
            child.join(10)
            if child.is_alive():
                child.kill()
    os._exit(128 + signum)
