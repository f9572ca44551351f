"""Shakes hands, then never answers a turn in time."""

import time

from _common import run


def turn(msg, rng):
    time.sleep(30)


run(turn, "sleeper")
