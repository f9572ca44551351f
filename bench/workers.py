"""The benches' worker processes: a pool that goes when its bench is stopped."""

from __future__ import annotations

import ctypes
import multiprocessing
import multiprocessing.pool
import os
import signal
import socket
import sys
import threading
from typing import Any

PR_SET_PDEATHSIG = 1  # prctl(2)
_OWNER: list[int] = []  # the process whose pool it is (a forked worker inherits the handler)
_WAKEUP: list[socket.socket] = []


def pool(processes: int, context: str | None = "spawn",
         **options: Any) -> multiprocessing.pool.Pool:
    """A process pool for a bench's `with`. A SIGTERM to the bench (kill, pkill, a closed
    terminal's session) then ends it and its workers (`_end_bench`);
    by default the bench would die alone and leave them running, still loading the machine
    under the next measurement. context None: the platform's default start method."""
    _OWNER[:] = [os.getpid()]
    signal.signal(signal.SIGTERM, _stop)
    _watch_other_threads()
    starts = multiprocessing.get_context(context)
    # a forkserver's workers are the server's children, not the bench's: no parent to check
    owner = 0 if starts.get_start_method() == "forkserver" else os.getpid()
    options["initargs"] = (owner, options.pop("initializer", None), options.pop("initargs", ()))
    return starts.Pool(processes, _start_worker, **options)


def _watch_other_threads() -> None:
    """Python runs a signal's handler on the main thread only, but the kernel may hand the
    signal to any thread (the pool's own, after a SIGSTOP and SIGCONT): the main thread then
    sleeps on in its wait for a result, for the rest of a game. The handler's C part writes
    the signal's number to the wakeup fd from whichever thread took it; a thread of our own
    reads it there and ends the bench. Once a process: a second pool shares the watch."""
    if _WAKEUP:
        return
    ours, theirs = socket.socketpair()
    theirs.setblocking(False)
    _WAKEUP[:] = [theirs]  # kept open: the handler writes to its number
    signal.set_wakeup_fd(theirs.fileno(), warn_on_full_buffer=False)

    def watch() -> None:
        while (got := ours.recv(64)) and signal.SIGTERM not in got:
            pass
        if got:
            _end_bench(signal.SIGTERM)

    threading.Thread(target=watch, daemon=True, name="sigterm-watch").start()


def _start_worker(owner: int, initializer: Any, initargs: tuple) -> None:
    """A worker, and one the pool starts in place of an ended one, ends with its bench: Linux
    sends it SIGTERM when the bench goes (a replacement started while the bench stopped was
    left running)."""
    signal.set_wakeup_fd(-1)  # a forked worker's signals are its own, not its bench's
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if owner and os.getppid() != owner:  # the bench went before the line above: no signal
        os._exit(128 + signal.SIGTERM)
    if initializer is not None:
        initializer(*initargs)


def _stop(signum: int, frame: Any) -> None:
    """A worker unwinds (its engines are closed on the way out). In the bench this handler
    only has to be there, so that the signal reaches the wakeup socket: the watch thread ends
    the bench, one thread at a time, whichever thread took the signal."""
    if os.getpid() not in _OWNER:
        raise SystemExit(128 + signum)


def _end_bench(signum: int) -> None:
    """The bench ends its workers itself, each wait bounded (a worker still there after 2 s
    is killed), and leaves at once. The pool's own terminate waits for its workers and
    threads with no bound: once, under the test suite's load, a bench stopped so was still
    waiting after 60 s."""
    for _ in range(5):  # the pool replaces a worker that ends: end the replacements too
        children = multiprocessing.active_children()
        if not children:
            break
        for child in children:
            child.terminate()
        for child in children:
            child.join(2)
            if child.is_alive():
                child.kill()
    os._exit(128 + signum)
