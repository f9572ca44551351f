"""Shakes hands, then dies at its first turn."""

import sys

from _common import run


def turn(msg, rng):
    print("dier: giving up", file=sys.stderr, flush=True)
    sys.exit(3)


run(turn, "dier")
