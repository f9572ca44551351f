"""A well-behaved agent: a uniformly random legal move (it cannot make setups)."""

from _common import run, say


def turn(msg, rng):
    if msg["type"] == "setup":
        say({"type": "error", "message": "this agent makes no setups"})
    else:
        say({"type": "move", "move": rng.choice(msg["legal"])})


run(turn, "random test agent")
