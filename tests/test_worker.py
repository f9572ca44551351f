"""Work off the loop thread: results, cancellation, stale results and errors."""

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from ai.base import ANSWER_RESERVE_S, Budget
from ai.worker import Worker


def test_result_and_error():
    w = Worker()
    w.submit(lambda cancel: 41 + 1)
    assert w.wait(5).value == 42
    w.submit(lambda cancel: 1 / 0)
    assert isinstance(w.wait(5).error, ZeroDivisionError)


def test_cancel_drops_stale_result():
    w = Worker()
    started = threading.Event()

    def slow(cancel):
        started.set()
        cancel.wait(5)
        return "old"

    w.submit(slow)
    started.wait(5)
    old = w._thread
    w.submit(lambda cancel: "new")
    assert w.wait(5).value == "new"
    old.join(5)  # the cancelled job has ended: its "old" is in the results now
    assert not old.is_alive() and w.poll() is None


def test_budget_expires_and_cancels():
    clock = [1000.0]
    b = Budget(0.05, now=lambda: clock[0])
    assert not b.expired() and b.remaining() == pytest.approx(0.05)
    clock[0] += 0.049
    assert not b.expired() and b.remaining() == pytest.approx(0.001)
    clock[0] += 0.002
    assert b.expired() and b.remaining() == 0
    c = Budget(10, now=lambda: clock[0])
    c.cancel.set()
    assert c.expired() and c.remaining() == 0


CHILD = """
import json, multiprocessing.resource_tracker as rt, os, sys, threading, time
sys.path.insert(0, {root!r})
from ai import worker
if sys.argv[1] == "thread":  # the pool made on a thread that then ends
    t = threading.Thread(target=worker._bot_pool)
    t.start()
    t.join()
pool = worker._bot_pool()
bot = pool.submit(os.getpid).result(30)
pool.submit(time.sleep, 60)  # busy when its parent dies
print(json.dumps({{"bot": bot, "tracker": rt._resource_tracker._pid}}), flush=True)
time.sleep(60)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.timeout(60)
@pytest.mark.parametrize("where", ["main", "thread"])
def test_the_bot_process_ends_when_the_arcade_is_killed(where):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    arcade = subprocess.Popen([sys.executable, "-c", CHILD.format(root=root), where],
                              stdout=subprocess.PIPE, text=True)
    pids: list[int] = []
    try:
        info = json.loads(arcade.stdout.readline())
        pids = [p for p in (info["bot"], info["tracker"]) if p]
        assert info["bot"] and all(_alive(p) for p in pids)
        arcade.kill()  # kill -9: no finalizer, no atexit
        arcade.wait(10)
        end = time.monotonic() + 5
        while any(_alive(p) for p in pids) and time.monotonic() < end:
            time.sleep(0.05)
        assert [p for p in pids if _alive(p)] == []
    finally:
        arcade.kill()
        arcade.wait(10)
        for p in pids:
            if _alive(p):
                os.kill(p, signal.SIGKILL)


def _ataxx_kernel_ready() -> bool:
    """Run in the bot process: whether its compiled Ataxx search loads without being asked."""
    from ai import ataxx
    return ataxx.KERNEL.wait(60) is not None


@pytest.mark.timeout(120)
def test_the_bot_process_loads_the_compiled_searches_when_it_starts():
    """The first move is searched compiled: the bot process warms its kernels as it starts,
    not on the first request (which would play that move with the pure search)."""
    from ai import compiled, worker
    if not compiled.enabled():
        pytest.skip("numba is turned off")
    worker.shutdown_bot_process()
    worker.start_bot_process()
    assert worker._bot_pool().submit(_ataxx_kernel_ready).result(90)


def _ataxx_kernel_at_once() -> bool:
    """Run in the bot process: whether its compiled Ataxx search is there without a wait."""
    from ai import ataxx
    return ataxx.KERNEL.get() is not None


@pytest.mark.timeout(120)
def test_a_bench_can_wait_until_the_bot_process_has_loaded_its_searches():
    """A bench asks for a move at once: its first move found the kernel still loading."""
    from ai import compiled, worker
    if not compiled.enabled():
        pytest.skip("numba is turned off")
    worker.shutdown_bot_process()
    worker.wait_for_bot_process(90)
    assert worker._bot_pool().submit(_ataxx_kernel_at_once).result(30)


@pytest.mark.timeout(60)
def test_a_bot_answers_inside_its_budget_with_the_way_back_counted():
    """The bot process gets the budget less the time the request took to reach it and a
    reserve for the answer's way back to the loop, so the loop has the move within budget."""
    from ai import worker
    from tests.fakes.budget_probe import FixedClock
    pool = worker._bot_pool()
    pool.submit(os.getpid).result(30)  # started
    clock = FixedClock(1000.0)  # the bot process's clock, standing still
    asked = 999.8  # a request that waited 0.2 s to be taken
    left = pool.submit(worker._decide_in_process, "move", "tests.fakes.budget_probe", {}, [1],
                       "hard", 1.0, 1, 0, worker._SHARED[0], asked, clock).result(30)
    assert left == pytest.approx(1.0 - 0.2 - ANSWER_RESERVE_S)


def _mark_then_sleep(path: str, seconds: float) -> None:
    """Run in the bot process: says it has started, then sleeps without looking at a flag."""
    open(path, "w").close()
    time.sleep(seconds)


def _slow_to_see(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pool's manager thread, which fails the ended process's futures, comes late (as
    on a loaded machine, where CI once saw the busy future still running)."""
    import concurrent.futures.process as cf_process
    seen = cf_process._ExecutorManagerThread.terminate_broken

    def late(self, cause):
        time.sleep(0.3)
        return seen(self, cause)
    monkeypatch.setattr(cf_process._ExecutorManagerThread, "terminate_broken", late)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("manager", ["prompt", "late"])
def test_a_busy_bot_process_ends_at_once_when_the_arcade_quits(tmp_path, monkeypatch, manager):
    """Quitting waited for the bot process to wind down: busy (compiling its kernels as it
    starts, say) or collecting them at its exit, a killed arcade lingered for seconds. Work
    that never looks at the cancel flag (a sleep here, 10 minutes) no longer holds it."""
    from ai import worker
    worker.shutdown_bot_process()
    if manager == "late":
        _slow_to_see(monkeypatch)
    pool = worker._bot_pool()
    pid = pool.submit(os.getpid).result(30)
    started = tmp_path / "started"
    busy = pool.submit(_mark_then_sleep, str(started), 600)
    for _ in range(3000):
        if started.exists():
            break
        time.sleep(0.01)
    assert started.exists()
    worker.shutdown_bot_process()
    assert busy.done()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # gone, and reaped
    assert worker._bot_pool().submit(os.getpid).result(30) != pid  # started again on demand
