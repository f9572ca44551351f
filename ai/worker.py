"""Work off the loop thread: one job at a time, cancellable, results picked up by polling."""

from __future__ import annotations

import ctypes
import importlib
import itertools
import multiprocessing as mp
import multiprocessing.util
import os
import queue
import random
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, cast

from ai import compiled
from ai.base import Bot, Budget, answer_reserve, ask_bot
from game import registry


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


class _Generation:
    """A cancel flag shared with the bot process: a job is cancelled once its worker's slot of
    the shared generations has moved past the one it started in (each AIWorker has a slot of
    its own, so cancelling one worker's search leaves another's alone)."""

    def __init__(self, shared, slot: int, started: int):
        self.shared, self.slot, self.started = shared, slot, started

    def is_set(self) -> bool:
        return self.shared[self.slot] != self.started

    def set(self) -> None:
        self.shared[self.slot] += 1


SLOTS = 256  # workers with a generation of their own; more share one (only over-cancelling)
_POOL: ProcessPoolExecutor | None = None
_PROCESS: Any = None  # the bot process itself (a multiprocessing Process), while it runs
# the generations, one per slot, in the parent and (inherited) the bot process
_SHARED: Any = None  # a multiprocessing Array of SLOTS signed 64-bit integers
_SLOT_NUMBERS = itertools.count()


def _init_bot_process(shared, parent_pid: int, death_signal: bool) -> None:
    global _SHARED
    _SHARED = shared
    die_with_parent(parent_pid, death_signal)
    # The searches run here, so their compiled kernels load here, at once: the first move
    # must not be played by the pure search while a kernel loads on demand.
    threading.Thread(target=compiled.warm_up, daemon=True, name="warm-up").start()


PR_SET_PDEATHSIG = 1  # linux/prctl.h
WATCH_S = 0.25  # how often the watchdog looks for its parent


def die_with_parent(parent_pid: int, death_signal: bool = False,
                    before_exit: Callable[[], None] | None = None) -> None:
    """End this process as soon as its parent does, however the parent ends (kill -9 too).

    A watchdog thread waits on the parent's sentinel (multiprocessing's pipe from the parent,
    which closes when the parent dies; a process handle on Windows) and watches os.getppid().
    With death_signal, Linux is also asked to SIGKILL this process when the parent goes; only
    when the parent spawned it from its main thread, since Linux sends that signal when the
    spawning thread ends. before_exit runs first, when the watchdog sees the death (a process
    that started programs of its own ends them: a death signal would give it no time to)."""
    if death_signal and sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # the watchdog is enough
    parent = mp.parent_process()

    def watch() -> None:
        while True:
            gone = parent is not None and not parent.is_alive()
            if gone or os.getppid() != parent_pid:
                if before_exit is not None:
                    try:
                        before_exit()
                    finally:
                        os._exit(0)
                os._exit(0)
            if parent is not None:
                parent.join(WATCH_S)
            else:
                time.sleep(WATCH_S)

    if os.getppid() != parent_pid:  # the parent died before the death signal was asked for
        os._exit(0)
    threading.Thread(target=watch, daemon=True, name="parent-watchdog").start()


def _bot_pool() -> ProcessPoolExecutor:
    """One bot process for the whole app: a search there never takes the loop's GIL."""
    global _POOL, _SHARED, _PROCESS
    if _POOL is None:
        ctx = mp.get_context("spawn")
        before = set(mp.active_children())
        _SHARED = ctx.Array("q", SLOTS, lock=False)
        main = threading.current_thread() is threading.main_thread()
        _POOL = ProcessPoolExecutor(1, mp_context=ctx, initializer=_init_bot_process,
                                    initargs=(_SHARED, os.getpid(), main))
        # The process is spawned by the first submit, on this thread: the death signal above
        # is asked for only when this is the main thread.
        _POOL.submit(os.getpid)
        _PROCESS = next(iter(set(mp.active_children()) - before), None)
        # A process that owns the pool (an arena worker, say) joins its children at exit
        # before concurrent.futures would stop them; this finalizer runs first, and before
        # the call queue's own (priority 10) closes the pipe the stop signal goes through.
        multiprocessing.util.Finalize(None, shutdown_bot_process, exitpriority=100)
    return _POOL


def start_bot_process() -> None:
    """Starts the bot process now (at launch, from the main thread), so its searches are
    loaded before the first move is asked for."""
    _bot_pool()


def wait_for_bot_process(timeout: float = 120.0) -> None:
    """Starts the bot process if need be and waits until its compiled searches are loaded: a
    bench's first move was charged with the process's start (0.21 s at 100 ms a move), and a
    move asked while the kernel loads is searched by the pure search (not for the loop
    thread: it blocks)."""
    _bot_pool().submit(compiled.warm_up).result(timeout)


BOT_EXIT_S = 2.0  # how long the stopped bot process has to end once told to


def shutdown_bot_process() -> None:
    """Stop any search in progress and end the bot process (it is started again on demand).

    The process is told to end at once (SIGTERM), not asked to wind down: it holds nothing to
    keep (numba writes its cache atomically), and its own exit, collecting its compiled kernels
    or still compiling them, took seconds a quitting arcade waited for."""
    global _POOL, _PROCESS
    pool, _POOL = _POOL, None
    process, _PROCESS = _PROCESS, None
    if pool is None:
        return
    for slot in range(SLOTS):
        _SHARED[slot] += 1
    if process is None:  # never seen: nothing to end, and nothing to wait for
        pool.shutdown(wait=False, cancel_futures=True)
        return
    process.terminate()
    process.join(BOT_EXIT_S)
    if process.is_alive():
        process.kill()
    # Only the first shutdown call joins the pool's manager thread, which fails the futures
    # the ended process held; a shutdown(wait=False) before this one returned before that.
    pool.shutdown(wait=True, cancel_futures=True)


def _decide_in_process(kind: str, ai_module: str, view: dict, legal: list, level: str,
                       seconds: float, seed: int, slot: int, generation: int,
                       asked_at: float, now: Callable[[], float] = time.monotonic) -> Any:
    """Runs in the bot process. The budget counts from asked_at (the monotonic clock is the
    machine's, so it holds across processes) and keeps a reserve for the way back. `now` is
    that clock (tests give a picklable one of their own)."""
    left = seconds - (now() - asked_at) - answer_reserve(seconds)
    budget = Budget(left, _Generation(_SHARED, slot, generation), now=now)
    bot = cast(Bot, importlib.import_module(ai_module))  # by name: the tests' games too
    return ask_bot(bot, kind == "setup", view, legal, level, budget, random.Random(seed))


class AIWorker:
    """Asks a built-in bot for a move or a setup in the bot process and polls for the answer.

    cancel() stops this worker's search, not another worker's (a bot seat's and a board's
    hint may wait in line for the one bot process).
    """

    def __init__(self) -> None:
        self._future: Future | None = None
        self._ticket = 0
        self._slot = next(_SLOT_NUMBERS) % SLOTS

    @property
    def busy(self) -> bool:
        return self._future is not None and not self._future.done()

    def _submit(self, kind: str, game_id: str, view: dict, legal: list, level: str,
                seconds: float, rng: random.Random) -> int:
        self.cancel()
        pool = _bot_pool()
        module = registry.get(game_id).ai_module().__name__
        self._ticket += 1
        self._future = pool.submit(_decide_in_process, kind, module, view, legal, level,
                                   seconds, rng.randrange(2**62), self._slot,
                                   _SHARED[self._slot], time.monotonic())
        return self._ticket

    def request_move(self, game_id: str, view: dict, legal: list, level: str,
                     seconds: float, rng: random.Random) -> int:
        return self._submit("move", game_id, view, legal, level, seconds, rng)

    def request_setup(self, game_id: str, view: dict, level: str, seconds: float,
                      rng: random.Random) -> int:
        return self._submit("setup", game_id, view, [], level, seconds, rng)

    def poll(self) -> Done | None:
        future = self._future
        if future is None or not future.done():
            return None
        self._future = None
        try:
            return Done(self._ticket, future.result())
        except BaseException as exc:  # the bot's error, or a bot process that died
            return Done(self._ticket, error=exc)

    def wait(self, timeout: float | None = None) -> Done | None:
        if self._future is None:
            return None
        try:
            self._future.result(timeout)
        except BaseException:  # reported by poll
            pass
        return self.poll()

    def cancel(self) -> None:
        if self._future is not None and _SHARED is not None:
            if not self._future.cancel():
                _SHARED[self._slot] += 1
        self._future = None
