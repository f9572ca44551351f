"""Answers a turn with a well-formed move that is not legal (or, with 'malformed', a move of
the wrong shape for any game), and a setup with nonsense."""

import sys

from _common import run, say


def turn(msg, rng):
    if msg["type"] == "setup":
        say({"type": "setup", "setup": "under the carpet"})
        return
    if sys.argv[1:] == ["malformed"]:
        say({"type": "move", "move": {"not": "a move"}})
        return
    legal = msg["legal"]
    if all(isinstance(m, int) for m in legal):
        move = max(legal) + 1000
    else:
        move = "a1a1" if "a1a1" not in legal else "h9"
    say({"type": "move", "move": move})


run(turn, "illegal")
