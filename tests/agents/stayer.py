"""Shakes hands, then at its first turn starts a child of its own session that keeps the
output pipe open, writes both pids into the folder named by its first argument
(agent-PID, child-PID) and never answers: a program still at work when its arena dies.
With a second argument "exit" it exits (code 5) once its child is there instead."""

import os
import sys
import time

from _common import run

FOLDER = sys.argv[1]
EXIT = sys.argv[2:] == ["exit"]


def mark(kind: str) -> None:
    path = os.path.join(FOLDER, f"{kind}-{os.getpid()}")
    with open(path + ".tmp", "w") as f:
        f.write(str(os.getpid()))
    os.replace(path + ".tmp", path)


def turn(msg, rng):
    child = os.fork()
    if child == 0:
        os.setsid()
        mark("child")
        time.sleep(120)
        os._exit(0)
    mark("agent")
    while EXIT and not os.path.exists(os.path.join(FOLDER, f"child-{child}")):
        time.sleep(0.01)
    if EXIT:
        sys.exit(5)
    time.sleep(120)


run(turn, "stayer")
