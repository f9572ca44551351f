"""Frame times of the real loop while bots think (headless).

    python bench/frame_times.py [--game ataxx] [--level hard] [--seconds 20]

Two bots play in the play scene's watch mode while the loop runs at 60 frames a second;
prints the frame interval (time from one frame to the next) median, p95, p99 and max.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("PAPER_ARCADE_HOME", "/tmp/paper-arcade-bench")

import numpy as np  # noqa: E402
import pygame  # noqa: E402

from game.app import FPS, App  # noqa: E402
from game.match import Match, Seat  # noqa: E402
from game.scenes.play import PlayScene  # noqa: E402
from players.bot import AIController  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--game", default="ataxx")
    p.add_argument("--level", default="hard")
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--move-seconds", type=float, default=1.0)
    args = p.parse_args()
    app = App()
    seats = [Seat("ai", "A", args.level), Seat("ai", "B", args.level)]
    match = Match(args.game, None, 1, seats)
    ctrls = [AIController(args.level, args.move_seconds, seed=i) for i in range(2)]
    app.push(PlayScene(app, match, ctrls))
    intervals, thinking = [], 0
    end = time.monotonic() + args.seconds
    last = time.perf_counter()
    while time.monotonic() < end and not match.over:
        app.clock.tick(FPS)
        now = time.perf_counter()
        intervals.append(now - last)
        last = now
        app.step(pygame.event.get(), 1 / FPS)
        pygame.display.flip()
        thinking += any(getattr(c, "thinking", False) for c in ctrls)
    ms = np.array(intervals[5:]) * 1000
    print(f"{args.game} {args.level} bots, {len(ms)} frames over {ms.sum() / 1000:.1f} s, "
          f"a bot thinking in {100 * thinking / max(1, len(intervals)):.0f}% of frames, "
          f"{len(match.moves)} moves played")
    print(f"frame interval ms: median {np.median(ms):.1f}  p95 {np.percentile(ms, 95):.1f}  "
          f"p99 {np.percentile(ms, 99):.1f}  max {ms.max():.1f}")
    for c in ctrls:
        c.close()


if __name__ == "__main__":
    main()
