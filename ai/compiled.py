"""Searches compiled with numba: compiled once per machine into the user's cache folder, loaded
off the loop thread, and absent (None) when numba is missing or fails, so a bot falls back to
its pure-Python search.

A bot module makes a `Kernel("ai.<module>")` at import; `Kernel.get()` never waits (it starts the
warm-up on first use and answers None until it is done), `Kernel.load()` waits. `warm_up()`
imports every game's bot and loads every kernel: the app runs it on a daemon thread at launch.
PAPER_ARCADE_NO_NUMBA=1 turns every kernel off (benchmarks of the pure searches).
"""

from __future__ import annotations

import importlib
import os
import threading
from collections.abc import Callable
from types import ModuleType

from game import registry, storage

_KERNELS: list[Kernel] = []


def enabled() -> bool:
    return os.environ.get("PAPER_ARCADE_NO_NUMBA", "") in ("", "0")


def _point_cache() -> None:
    """numba's cache goes under the arcade's cache folder unless NUMBA_CACHE_DIR says else."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    folder = str(storage.cache_dir() / "numba")
    os.environ["NUMBA_CACHE_DIR"] = folder
    from numba.core import config
    config.CACHE_DIR = folder


class Kernel:
    """One compiled module: imported, warmed (its `warm()` run) and kept, or None for good.
    `prepare`, if given, runs once on the warmed module before anyone gets it (on the loading
    thread: work a bot would otherwise do inside its first move's budget)."""

    def __init__(self, module: str, prepare: Callable[[ModuleType], None] | None = None):
        self.module = module
        self.prepare = prepare
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self._started = False
        self._value: ModuleType | None = None
        self.error: BaseException | None = None
        _KERNELS.append(self)

    def load(self) -> ModuleType | None:
        """The warmed module, compiling it now if need be; None without numba."""
        if not enabled():
            return None
        with self._lock:
            if not self._ready.is_set():
                try:
                    _point_cache()
                    module = importlib.import_module(self.module)
                    module.warm()
                    if self.prepare is not None:
                        self.prepare(module)
                    self._value = module
                except Exception as exc:  # numba missing, or a compiler failure: pure Python
                    self.error = exc
                    self._value = None
                self._ready.set()
        return self._value

    def get(self) -> ModuleType | None:
        """The module if it is ready, else None at once (a background warm-up is started)."""
        if self._ready.is_set():
            return self._value if enabled() else None
        if enabled():
            self.start()
        return None

    def start(self) -> None:
        """Load on a daemon thread, once."""
        if not self._lock.acquire(blocking=False):
            return  # a load is under way (it holds the lock until the module is warm)
        try:
            if self._started or self._ready.is_set():
                return
            self._started = True
        finally:
            self._lock.release()
        threading.Thread(target=self.load, daemon=True, name=f"warm-{self.module}").start()

    def wait(self, timeout: float | None = None) -> ModuleType | None:
        self._ready.wait(timeout)
        return self._value if self._ready.is_set() else None


def warm_up() -> None:
    """Imports every registered game's bot and loads its kernels (call off the loop thread)."""
    if not enabled():
        return
    for game_id in registry.available():
        try:
            registry.get(game_id).ai_module()
        except Exception:  # a game without a bot module, or a broken one, warms nothing
            continue
    for kernel in list(_KERNELS):
        kernel.load()
