"""Answers a turn with endless output: one line that never ends."""

import sys

from _common import run


def turn(msg, rng):
    chunk = "x" * 65536
    while True:
        sys.stdout.write(chunk)


run(turn, "flood")
