"""Answers a turn with a line that is not JSON (or, with 'unknown', a message of unknown type)."""

import sys

from _common import run, say


def turn(msg, rng):
    if sys.argv[1:] == ["unknown"]:
        say({"type": "banana"})
    else:
        sys.stdout.write("I think I will play e4\n")
        sys.stdout.flush()


run(turn, "garbage")
