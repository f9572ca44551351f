"""A clock that moves a little every time it is read: a search's deadline passes after a known
number of looks at it, whatever the machine's load (no test waits on the wall clock)."""

from __future__ import annotations

import threading


class TickingClock:
    def __init__(self, step: float = 0.001, start: float = 1000.0):
        self.step, self.t = step, start
        self.reads = 0
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            self.reads += 1
            self.t += self.step
            return self.t
