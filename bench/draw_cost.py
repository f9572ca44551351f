"""What one frame of the play screen costs to draw, per game and window size (headless).

    python bench/draw_cost.py [--sizes 800x560,1920x1080] [--game ID] [--frames 60]

Each game is opened some moves in (as bench/screens.py does), a few frames settle it (the page's
grain and the stamps are made then, once), and then --frames frames are stepped with no input;
prints the mean and the worst milliseconds a frame took.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

_spec = importlib.util.spec_from_file_location("screens", Path(__file__).with_name("screens.py"))
screens = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(screens)

from ai.worker import shutdown_bot_process  # noqa: E402
from client.app import App  # noqa: E402
from client.scenes.base import start_match  # noqa: E402
from game import registry  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="800x560,1920x1080")
    p.add_argument("--game", action="append", help="only these games (default: all)")
    p.add_argument("--frames", type=int, default=60)
    args = p.parse_args()
    for size_text in args.sizes.split(","):
        size = tuple(int(v) for v in size_text.split("x"))
        for game_id in args.game or registry.available():
            app = App(size)
            app.push("title")
            start_match(app, screens.mid_game(game_id))
            for _ in range(5):
                app.step([], 1 / 60)
            times = []
            for _ in range(args.frames):
                t = time.perf_counter()
                app.step([], 1 / 60)
                times.append(time.perf_counter() - t)
            app.close_all()
            print(f"{size_text:>9} {game_id:<8} mean {1000 * sum(times) / len(times):5.1f} ms"
                  f"  worst {1000 * max(times):5.1f} ms")
    shutdown_bot_process()


if __name__ == "__main__":
    main()
