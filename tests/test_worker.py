"""Work off the loop thread: results, cancellation, stale results and errors."""

import threading
import time

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
