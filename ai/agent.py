"""The built-in bots as an outside program: the agent side of arcade-agent/1
(docs/protocol.md).

    python -m ai.agent [--level easy|normal|hard|random] [--seed N]

One JSON object a line on stdin and stdout; logs go to stderr. The agent keeps no game state:
the view in each message is all the bot sees. A view may leave out the fields the protocol lets
a host leave out: they are filled in from start and from the message (complete_view). When a
turn omits "legal", the list is rebuilt from the view by the rules' legal_moves_from_view (a
view always suffices).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable, Iterable
from typing import IO, Any

from ai.base import LEVELS, Budget, decide, decide_setup
from game import registry
from game.rules import Rules, RulesError

PROTOCOL = "arcade-agent/1"  # the one source: players/program.py speaks it from here
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def budget_seconds(time_ms: float) -> float:
    """The search time that leaves a safe margin under time_ms for reading, writing and the
    bot's own overshoot: a fifth of it, at least 30 ms and at most 300 ms."""
    ms = max(0.0, float(time_ms))
    margin = min(300.0, max(30.0, ms / 5))
    return max(0.0, ms - margin) / 1000.0


def playable_games() -> list[str]:
    """The games the agent plays: every available game, as every game has its bot module."""
    return registry.available()


def legal_from_view(rules: Rules, view: dict, options: dict) -> list:
    """The legal moves of the seat to move from its view alone (a turn without "legal").
    RulesError when the view does not say enough."""
    try:
        return list(rules.legal_moves_from_view(view, options))
    except (RulesError, KeyError, TypeError, ValueError, IndexError) as exc:
        raise RulesError(f"{rules.ID}: 'legal' was omitted and cannot be rebuilt from the view:"
                         f" {exc}") from exc


def complete_view(view: dict, fields: Iterable[str], options: dict, seat: int,
                  phase: str) -> dict:
    """The view with what a host may leave out filled in (docs/protocol.md, "Fields a view may
    leave out"), among the fields this game's views carry: a field named as an option is that
    option's value from start, "options" all of them, "to_move" the seat given in start (a
    setup or a turn goes to the seat to move), and "phase" the message's phase. The view's
    own values always win."""
    implied = {"options": dict(options), "to_move": seat, "phase": phase}
    out = dict(view)
    for key in fields:
        if key in out:
            continue
        if key in options:
            out[key] = options[key]
        elif key in implied:
            out[key] = implied[key]
    return out


class Agent:
    """Answers host messages one at a time; handle() returns the replies to print."""

    def __init__(self, level: str = "normal", seed: int | None = None,
                 games: list[str] | None = None, now: Callable[[], float] = time.monotonic):
        self.level = level
        self.now = now  # the clock each message's budget runs on (tests move their own)
        self.rng = random.Random(seed)
        self.games = playable_games() if games is None else games
        self.game: str | None = None
        self.options: dict = {}
        self.seat: int | None = None
        self.fields: tuple[str, ...] = ()  # the fields this game's views carry
        self.finished = False

    def handle(self, msg: Any) -> list[dict]:
        if not isinstance(msg, dict):
            return [error("a message must be a JSON object")]
        kind = msg.get("type")
        handler = {"hello": self.on_hello, "start": self.on_start, "setup": self.on_setup,
                   "turn": self.on_turn, "result": self.on_result,
                   "quit": self.on_quit}.get(kind) if isinstance(kind, str) else None
        if handler is None:
            return [error(f"unknown message type {kind!r}")]
        try:
            return handler(msg)
        except (RulesError, KeyError, TypeError, ValueError) as exc:
            return [error(f"{kind}: {exc}")]

    def on_hello(self, msg: dict) -> list[dict]:
        if msg.get("protocol") != PROTOCOL:
            return [error(f"protocol {msg.get('protocol')!r} is not {PROTOCOL}")]
        name = f"Paper Arcade {self.level} bot"
        return [{"type": "hello", "name": name, "games": list(self.games)}]

    def on_start(self, msg: dict) -> list[dict]:
        game = msg.get("game")
        if game not in self.games:
            return [error(f"cannot play {game!r}; games: {', '.join(self.games)}")]
        rules = registry.rules(game)
        options = rules.normalize_options(msg.get("options") or {})
        seat = msg.get("seat", 0)
        if type(seat) is not int or not 0 <= seat < rules.PLAYERS:
            return [error(f"bad seat {seat!r}")]
        registry.get(game).ai_module()  # imported now, so the first turn's clock is not spent on it
        self.game, self.options, self.seat = game, options, seat
        self.fields = tuple(rules.view(rules.new_game(options, 0), seat))
        return [{"type": "ready"}]

    def _budget(self, msg: dict) -> Budget:
        time_ms = msg.get("time_ms", 1000)
        if type(time_ms) not in (int, float) or time_ms < 0:
            raise ValueError(f"bad time_ms {time_ms!r}")
        return Budget(budget_seconds(time_ms), now=self.now)

    def _view(self, msg: dict, phase: str) -> tuple[str, dict]:
        """The game started and the message's view, completed."""
        if self.game is None or self.seat is None:
            raise ValueError("no game started")
        view = msg.get("view")
        if not isinstance(view, dict):
            raise ValueError("the view must be a JSON object")
        return self.game, complete_view(view, self.fields, self.options, self.seat, phase)

    def on_setup(self, msg: dict) -> list[dict]:
        (game, view), budget = self._view(msg, "setup"), self._budget(msg)
        if not registry.rules(game).SETUP:
            return [error(f"{game} has no setup phase")]
        setup = decide_setup(game, view, self.level, budget, self.rng)
        return [{"type": "setup", "setup": setup}]

    def on_turn(self, msg: dict) -> list[dict]:
        (game, view), budget = self._view(msg, "play"), self._budget(msg)
        rules = registry.rules(game)
        legal = msg.get("legal")
        if legal is None:
            legal = legal_from_view(rules, view, self.options)
        if not isinstance(legal, list) or not legal:
            raise ValueError("no legal moves to choose from")
        move = decide(game, view, legal, self.level, budget, self.rng)
        return [{"type": "move", "move": rules.move_to_wire(move)}]

    def on_result(self, msg: dict) -> list[dict]:
        self.game, self.seat, self.fields = None, None, ()
        return []

    def on_quit(self, msg: dict) -> list[dict]:
        self.finished = True
        return []


def error(message: str) -> dict:
    return {"type": "error", "message": message}


def serve(agent: Agent, inp: IO[str], out: IO[str]) -> None:
    """Read messages until quit or end of input; write each answer as one flushed line."""
    while not agent.finished:
        line = inp.readline()
        if not line:
            return
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            replies = [error(f"not JSON: {line.strip()[:80]!r}")]
        else:
            try:
                replies = agent.handle(msg)
            except Exception as exc:  # a bot bug must not end the agent: report it and go on
                print(f"agent: {type(exc).__name__}: {exc}", file=sys.stderr)
                replies = [error(f"internal error: {type(exc).__name__}: {exc}")]
        for reply in replies:
            out.write(json.dumps(reply, separators=(",", ":")) + "\n")
            out.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.agent", description=__doc__.split("\n")[0])
    parser.add_argument("--level", choices=LEVELS, default="normal")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    out = sys.stdout
    sys.stdout = sys.stderr  # a stray print in a bot or a library must not break the protocol
    serve(Agent(args.level, args.seed), sys.stdin, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
