"""What the test agents share: the handshake, and a loop that calls on_turn for each turn."""

from __future__ import annotations

import json
import random
import sys

GAMES = ["ataxx", "dots", "planes", "banqi", "g2048", "race", "hide"]


def say(msg: dict) -> None:
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def run(on_turn, name: str = "test agent") -> None:
    """Answer hello and start properly; on_turn(msg, rng) handles each turn and setup."""
    rng = random.Random(1)
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            say({"type": "hello", "name": name, "games": GAMES})
        elif kind == "start":
            say({"type": "ready"})
        elif kind in ("turn", "setup"):
            on_turn(msg, rng)
        elif kind == "quit":
            return
