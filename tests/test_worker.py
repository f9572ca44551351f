"""Work off the loop thread: results, cancellation, stale results and errors."""

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from ai.base import Budget
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
    w.submit(lambda cancel: "new")
    assert w.wait(5).value == "new"
    time.sleep(0.05)
    assert w.poll() is None


def test_budget_expires_and_cancels():
    b = Budget(0.05)
    assert not b.expired() and b.remaining() > 0
    time.sleep(0.06)
    assert b.expired()
    c = Budget(10)
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
