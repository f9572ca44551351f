"""Shakes hands, then at its first turn closes its output and exits with code 3 only once
the file named by its first argument exists (the test makes it after the host saw the end of
the output): the exit and the end of output arrive apart, as on a loaded machine."""

import os
import sys
import time

from _common import run

RELEASE = sys.argv[1]


def turn(msg, rng):
    sys.stdout.flush()
    os.close(1)
    with open(RELEASE + ".closed", "w") as f:  # a watching launcher keeps the pipe open
        f.write("closed")
    while not os.path.exists(RELEASE):
        time.sleep(0.01)
    os._exit(3)


run(turn, "late")
