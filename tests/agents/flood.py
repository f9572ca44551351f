"""Answers a turn with endless output: one line that never ends (or, with 'lines', endless
short lines)."""

import sys

from _common import run


def turn(msg, rng):
    if sys.argv[1:] == ["lines"]:
        while True:
            sys.stdout.write("spam spam spam\n")
    chunk = "x" * 65536
    while True:
        sys.stdout.write(chunk)


run(turn, "flood")
