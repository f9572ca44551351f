"""A bot for the test game that thinks until it is told the answer may go (a file exists) or
until its search is cancelled, and says which: for tests of cancelling one search among
several, without a timer."""

from __future__ import annotations

import os
import time


def choose(view, legal, budget, level, rng):
    with open(view["started"], "w") as f:  # the search is under way
        f.write("started")
    while not budget.cancel.is_set():
        if os.path.exists(view["release"]):
            return "finished"
        time.sleep(0.005)
    return "cancelled"
