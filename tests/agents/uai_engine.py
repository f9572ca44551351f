"""A small UAI engine for Ataxx tests: random legal moves (from the FEN, through the rules
module), or, with a mode argument, a misbehaving one: 'sleep' never answers a go, 'info' prints
info lines without end, 'illegal' answers a1a1, 'malformed' answers a move that is no move,
'die' exits at the first go, 'pass' writes a pass as AtaxxDotCpp does ("pass", not "0000")."""

import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

from ai.agent import legal_from_view  # noqa: E402
from game import registry  # noqa: E402

MODE = sys.argv[1] if len(sys.argv) > 1 else "random"


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def go(fen: str, rng: random.Random) -> None:
    if MODE == "sleep":
        time.sleep(30)
    elif MODE == "info":
        while True:
            say("info depth 1 score cp 0 nodes 1 pv a1")
    elif MODE == "die":
        sys.exit(4)
    elif MODE == "illegal":
        say("bestmove a1a1")
    elif MODE == "malformed":
        say("bestmove z9")
    else:
        legal = legal_from_view(registry.rules("ataxx"), {"fen": fen}, {})
        move = rng.choice(legal)
        say("info depth 1 nodes 1")
        say(f"bestmove {'pass' if MODE == 'pass' and move == '0000' else move}")


def main() -> None:
    rng = random.Random(2)
    fen = ""
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uai":
            say("id name test-uai")
            say("option name Hash type spin default 1 min 1 max 1")
            say("uaiok")
        elif words[0] == "isready":
            say("readyok")
        elif words[0] == "position" and words[1:2] == ["fen"]:
            fen = " ".join(words[2:])
        elif words[0] == "go":
            go(fen, rng)
        elif words[0] == "quit":
            return


main()
