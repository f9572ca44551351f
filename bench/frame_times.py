"""Decision times and frame times of the real loop while bots play (headless).

    python bench/frame_times.py [--game ataxx|all] [--level hard|all] [--seconds 20]
                                [--move-seconds S] [--speed 1]

For each game and level, bots of that level play in the play scene's watch mode (one bot for a
one-player game; a game with a setup phase is set up by its bots as the scene asks), one game
after another for --seconds, while the loop runs at 60 frames a second. A decision is timed from
the request to its answer reaching the loop, as the watcher sees it. The budget is the arcade's
own for the level (the settings' Hard time, the others in proportion) unless --move-seconds says
otherwise. One row per game and level: decisions made, their median, p99 and max against the
budget, how many went over it (and over it by more than a frame) and the worst by how much, and
the frame interval (one frame to the next) median, p99 and max, with the share of frames in which
a bot was thinking. Decisions in flight when the time is up are waited for, so a slow one counts.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("PAPER_ARCADE_HOME", "/tmp/paper-arcade-bench")

import numpy as np  # noqa: E402
import pygame  # noqa: E402

from ai import compiled  # noqa: E402
from ai.base import LEVELS  # noqa: E402
from client.app import FPS, App  # noqa: E402
from client.scenes.base import level_seconds  # noqa: E402
from game import registry  # noqa: E402
from game.match import Match, Seat  # noqa: E402
from players.base import Decision  # noqa: E402
from players.bot import AIController  # noqa: E402

FRAME = 1.0 / FPS
SKIP_FRAMES = 5  # a row's first frames lay the scene out
DRAIN_S = 10.0  # at most this long past --seconds (plus 10 budgets) for decisions in flight


class TimedBot(AIController):
    """A built-in bot seat that notes how long each decision took to reach the loop."""

    def __init__(self, level: str, seconds: float, seed: int, times: list[float]):
        super().__init__(level, seconds, seed)
        self.times = times
        self.asked: float | None = None  # perf_counter() of the request in flight

    def request(self, match: Match, seat: int) -> None:
        self.asked = time.perf_counter()
        super().request(match, seat)

    def poll(self) -> Decision | None:
        decision = super().poll()
        if decision is not None and self.asked is not None:
            self.times.append(time.perf_counter() - self.asked)
            self.asked = None
        return decision

    def cancel(self) -> None:
        self.asked = None
        super().cancel()


@dataclass
class Row:
    """What one game at one level measured."""

    game: str
    level: str
    budget: float
    decisions: list[float] = field(default_factory=list)  # seconds, request to answer
    intervals: list[float] = field(default_factory=list)  # seconds between frames
    thinking_frames: int = 0
    games: int = 0
    unanswered: int = 0  # decisions still out when the drain gave up (counted at that time)


def seats(game_id: str, level: str) -> list[Seat]:
    """A bot of this level in every seat of the game."""
    return [Seat("ai", f"{level} bot {i + 1}", level) for i in range(registry.get(game_id).players)]


def open_game(app: App, row: Row, speed: float) -> tuple[Match, list[TimedBot]]:
    """A new game of the row's kind in the play scene's watch mode, in place of the top scene."""
    row.games += 1
    match = Match(row.game, None, row.games, seats(row.game, row.level))
    bots = [TimedBot(row.level, row.budget, 100 * row.games + i, row.decisions)
            for i in range(len(match.seats))]
    app.replace("play", match=match, controllers=bots, watch_speed=speed)
    return match, bots


def frame(app: App, row: Row, last: float) -> float:
    """One frame of the loop as App.run paces it; returns when it began."""
    dt = app.clock.tick(FPS) / 1000.0
    now = time.perf_counter()
    row.intervals.append(now - last)
    app.step(pygame.event.get(), min(dt, 0.1))
    pygame.display.flip()
    return now


def watch(app: App, row: Row, seconds: float, speed: float) -> Row:
    """Bots play games of the row's kind for `seconds`, then the decisions in flight end."""
    match, bots = open_game(app, row, speed)
    end = time.monotonic() + seconds
    give_up = end + DRAIN_S + 10 * row.budget
    last = time.perf_counter()
    while True:
        now = time.monotonic()
        in_flight = any(b.asked is not None for b in bots)
        if now >= end and not in_flight or now >= give_up:
            break
        last = frame(app, row, last)
        row.thinking_frames += any(b.thinking for b in bots)
        if match.over and now < end:
            match, bots = open_game(app, row, speed)
    for b in bots:
        if b.asked is not None:
            row.decisions.append(time.perf_counter() - b.asked)
            row.unanswered += 1
    return row


def warm_up(games: list[str]) -> float:
    """Compile (or load) the searches, then start the bot process and let it load them with one
    Hard decision per game, so that the rows measure play rather than start-up; seconds taken."""
    start = time.perf_counter()
    compiled.warm_up()
    for game_id in games:
        match = Match(game_id, None, 0, seats(game_id, "hard"))
        bot = AIController("hard", level_seconds("hard"), seed=0)
        bot.request(match, match.to_move())
        bot.worker.wait()
        bot.close()
    return time.perf_counter() - start


HEADER = (f"{'game':8} {'level':6} {'budget':>6} {'games':>5} {'dec':>4} {'median':>7} "
          f"{'p99':>6} {'max':>6} {'over':>4} {'>1f':>4} {'worst+':>7} | {'frames':>6} "
          f"{'median':>6} {'p99':>6} {'max':>6} {'think':>5}")


def report(row: Row) -> str:
    """The row's line: decision times in ms against the budget, then frame intervals in ms."""
    budget_ms = 1000 * row.budget
    d = np.array(row.decisions) * 1000 if row.decisions else np.zeros(1)
    over = d - budget_ms
    f = np.array(row.intervals[SKIP_FRAMES:] or [0.0]) * 1000
    think = 100 * row.thinking_frames / max(1, len(row.intervals))
    line = (f"{row.game:8} {row.level:6} {budget_ms:6.0f} {row.games:5d} {len(row.decisions):4d} "
            f"{np.median(d):7.0f} {np.percentile(d, 99):6.0f} {d.max():6.0f} "
            f"{int((over > 0).sum()):4d} {int((over > 1000 * FRAME).sum()):4d} "
            f"{max(0.0, over.max()):+7.0f} | {len(f):6d} {np.median(f):6.1f} "
            f"{np.percentile(f, 99):6.1f} {f.max():6.1f} {think:4.0f}%")
    if row.unanswered:
        line += f"  ({row.unanswered} never answered: counted until the wait gave up)"
    return line


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--game", default="ataxx", choices=(*registry.GAME_IDS, "all"))
    p.add_argument("--level", default="hard", choices=(*LEVELS, "all"))
    p.add_argument("--seconds", type=float, default=20.0, help="watch time per game and level")
    p.add_argument("--move-seconds", type=float, default=None,
                   help="every level's budget (default: the arcade's own per level)")
    p.add_argument("--speed", type=float, default=1.0, help="watch speed (pause between moves)")
    args = p.parse_args()
    games = list(registry.GAME_IDS) if args.game == "all" else [args.game]
    levels = ["easy", "normal", "hard"] if args.level == "all" else [args.level]
    print(f"warm-up (compiled searches, bot process): {warm_up(games):.1f} s")
    app = App()
    print("decisions and frame intervals in ms; over: decisions over budget, >1f: over by more "
          "than a frame; think: frames with a bot thinking")
    print(HEADER, flush=True)
    for game_id in games:
        for level in levels:
            budget = level_seconds(level) if args.move_seconds is None else args.move_seconds
            row = watch(app, Row(game_id, level, budget), args.seconds, args.speed)
            print(report(row), flush=True)
    app.close_all()
    pygame.quit()


if __name__ == "__main__":
    main()
