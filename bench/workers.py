"""The benches' worker processes: a pool that goes when its bench is stopped."""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import signal
from typing import Any


def pool(processes: int, context: str | None = "spawn",
         **options: Any) -> multiprocessing.pool.Pool:
    """A process pool for a bench's `with`. A SIGTERM to the bench (kill, pkill, a closed
    terminal's session) then stops it as Ctrl+C does, so the `with` terminates the workers;
    by default the bench would die alone and leave them running, still loading the machine
    under the next measurement. context None: the platform's default start method."""
    signal.signal(signal.SIGTERM, _stop)
    return multiprocessing.get_context(context).Pool(processes, **options)


def _stop(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)
