"""Shakes hands, then at its first turn starts a child of its own session that keeps the
output pipe open, writes both pids into the folder named by its first argument
(agent-PID, child-PID) and never answers: a program still at work when its arena dies."""

import os
import sys
import time

from _common import run

FOLDER = sys.argv[1]


def mark(kind: str) -> None:
    path = os.path.join(FOLDER, f"{kind}-{os.getpid()}")
    with open(path + ".tmp", "w") as f:
        f.write(str(os.getpid()))
    os.replace(path + ".tmp", path)


def turn(msg, rng):
    if os.fork() == 0:
        os.setsid()
        mark("child")
        time.sleep(120)
        os._exit(0)
    mark("agent")
    time.sleep(120)


run(turn, "stayer")
