"""Shakes hands, then answers a turn with a move nested DEPTH deep (the argument; 30,000 by
default, a RecursionError for a recursive parser), and waits to be killed."""

import sys
import time

from _common import run

DEPTH = int(sys.argv[1]) if len(sys.argv) > 1 else 30_000


def turn(msg, rng):
    sys.stdout.write('{"type": "move", "move": ' + "[" * DEPTH + "]" * DEPTH + "}\n")
    sys.stdout.flush()
    time.sleep(60)


run(turn, "deep")
