"""Work off the loop thread: one job at a time, cancellable, results picked up by polling."""

from __future__ import annotations

import queue
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ai.base import Budget, decide, decide_setup


@dataclass
class Done:
    """A finished job: its ticket, and its value or the exception it raised."""

    ticket: int
    value: Any = None
    error: BaseException | None = None


class Worker:
    """Runs a job on a daemon thread. A new job or cancel() makes older results stale.

    The loop thread calls poll() each frame; it never waits on the job.
    """

    def __init__(self) -> None:
        self._results: queue.Queue[Done] = queue.Queue()
        self._ticket = 0
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def busy(self) -> bool:
        return self._thread is not None and self._thread.is_alive() and not self._cancel.is_set()

    def submit(self, job: Callable[[threading.Event], Any]) -> int:
        """Start job(cancel_event) on a new thread; returns its ticket."""
        self.cancel()
        self._ticket += 1
        ticket, cancel = self._ticket, threading.Event()
        self._cancel = cancel

        def run() -> None:
            try:
                value = job(cancel)
            except BaseException as exc:  # reported to the loop thread, never lost
                self._results.put(Done(ticket, error=exc))
            else:
                self._results.put(Done(ticket, value))

        self._thread = threading.Thread(target=run, name=f"worker-{ticket}", daemon=True)
        self._thread.start()
        return ticket

    def cancel(self) -> None:
        """Cancel the running job (if any); its result will be dropped."""
        self._cancel.set()
        self._ticket += 1

    def poll(self) -> Done | None:
        """The current job's result once it is done, else None. Stale results are dropped."""
        while True:
            try:
                done = self._results.get_nowait()
            except queue.Empty:
                return None
            if done.ticket == self._ticket:
                self._thread = None
                return done

    def wait(self, timeout: float | None = None) -> Done | None:
        """Block until the current job is done (for scripts and tests, never the loop)."""
        while True:
            try:
                done = self._results.get(timeout=timeout)
            except queue.Empty:
                return None
            if done.ticket == self._ticket:
                self._thread = None
                return done


class AIWorker(Worker):
    """A Worker that asks a built-in bot for a move or a setup."""

    def request_move(self, game_id: str, view: dict, legal: list, level: str,
                     seconds: float, rng: random.Random) -> int:
        return self.submit(lambda cancel: decide(
            game_id, view, legal, level, Budget(seconds, cancel), rng))

    def request_setup(self, game_id: str, view: dict, level: str, seconds: float,
                      rng: random.Random) -> int:
        return self.submit(lambda cancel: decide_setup(
            game_id, view, level, Budget(seconds, cancel), rng))
