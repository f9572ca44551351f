"""A cancel flag (ai.base.CancelFlag) that turns itself on after it has been asked a number of
times: a search is cancelled mid-way after a known number of looks at it, with no timer and
whatever the machine's load. A clock that never moves goes with it, so that only the cancel
can end the search."""

from __future__ import annotations

import threading


class CancelAfter:
    def __init__(self, asks: int):
        self.asks_left = asks
        self.asked = 0
        self._set = False
        self._lock = threading.Lock()

    def is_set(self) -> bool:
        with self._lock:
            self.asked += 1
            if self.asks_left > 0:
                self.asks_left -= 1
                if self.asks_left == 0:
                    self._set = True
            return self._set

    def set(self) -> None:
        with self._lock:
            self._set = True


def frozen_clock(t: float = 1000.0):
    """A clock that never moves: a budget on it never runs out by itself."""
    return lambda: t
