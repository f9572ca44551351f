#!/usr/bin/env python3
"""Paper Arcade: start the arcade, a demo, a replay, or a headless LAN game."""

from __future__ import annotations

import argparse
import gc
import os
import sys
import threading
from collections.abc import Callable
from typing import Any, TextIO

from net.link import DEFAULT_PORT

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="Paper Arcade")
    p.add_argument("--demo", metavar="GAME", help="watch two bots play GAME")
    p.add_argument("--replay", metavar="FILE", help="open a replay file")
    p.add_argument("--host", metavar="GAME", help="host a LAN game of GAME")
    p.add_argument("--join", metavar="ADDRESS:PORT", help="join a LAN game")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help="TCP port to host on (0: any free port)")
    p.add_argument("--headless", action="store_true", help="no window: print the result line")
    p.add_argument("--ai", default=None, metavar="LEVEL",
                   help="bot level for --demo/--host/--join (random, easy, normal, hard; "
                        "normal, or easy at DEMO_SECONDS a move for --demo --headless)")
    p.add_argument("--seconds", type=float, default=None, help="bot time a move, seconds")
    p.add_argument("--seed", type=int, default=None, help="the game's seed (--demo)")
    p.add_argument("--install-shortcut", action="store_true",
                   help="add the arcade to the desktop's menu (Linux: a .desktop file and icon)")
    p.add_argument("--remove-shortcut", action="store_true",
                   help="remove what --install-shortcut added")
    return p.parse_args(argv)


DEMO_LEVEL, DEMO_SECONDS = "easy", 0.05  # --demo --headless with no --ai: done in seconds
PROGRESS_EVERY = 20  # --demo --headless: a progress line on stderr every so many moves


def demo_budget(level: str | None, seconds: float | None) -> tuple[str, float | None]:
    """The bots' level and seconds a move for --demo --headless: what was asked, else a game
    that ends in seconds."""
    if level is None:
        return DEMO_LEVEL, DEMO_SECONDS if seconds is None else seconds
    return level, seconds


def demo_progress(match: Any, out: TextIO) -> Callable[[Any], None]:
    """What --demo --headless prints while it plays: a notice as a warning, and every
    PROGRESS_EVERY moves how far the game is (so a long game is seen to go on)."""
    from players.events import EventKind

    def on_event(event: Any) -> None:
        if event.kind is EventKind.NOTICE:
            print(f"warning: {event.text.english()}", file=out)
        elif event.kind is EventKind.MOVED and len(match.moves) % PROGRESS_EVERY == 0:
            score = "-".join(str(n) for n in match.score())
            print(f"{match.game_id}: {len(match.moves)} moves, score {score}", file=out,
                  flush=True)

    return on_event


def headless_demo(game_id: str, level: str | None, seconds: float | None,
                  seed: int | None) -> int:
    from game import registry
    from game.match import Match, Seat
    from players.bot import AIController
    from players.table import play_out
    try:
        info = registry.get(game_id)
    except KeyError as exc:
        print(f"error: {exc.args[0]}", file=sys.stderr)
        return 2
    level, seconds = demo_budget(level, seconds)
    seats = [Seat("ai", f"Bot {i + 1}", level) for i in range(info.players)]
    match = Match(game_id, None, seed, seats)
    controllers = [AIController(level, seconds, seed=(match.seed + i)) for i in range(len(seats))]
    play_out(match, controllers, records=True, on_event=demo_progress(match, sys.stderr))
    print(match.result_line())
    return 0


def headless_replay(path: str) -> int:
    from game import replay, storage
    try:
        match, _ = replay.load_replay(path)
    except storage.FileError as exc:
        print(f"error: {path}: {exc}", file=sys.stderr)
        return 2
    print(match.result_line())
    return 0


def headless_lan(args: argparse.Namespace) -> int:
    try:
        from net import headless
    except ImportError as exc:
        print(f"error: LAN play is not available: {exc}", file=sys.stderr)
        return 2
    try:
        if args.host:
            line = headless.run_host(args.host, args.ai or "normal", args.port, seed=args.seed,
                                     on_listening=lambda port: print(
                                         f"hosting {args.host} on port {port}",
                                         file=sys.stderr, flush=True))
        else:
            line = headless.run_join(args.join, args.ai or "normal")
    except (OSError, ValueError, KeyError, TypeError, ConnectionError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(line)
    return 0


def run_window(args: argparse.Namespace) -> int:
    from ai.base import LEVELS
    from client.app import App, NoDisplay
    from client.scenes.play import PlayScene
    from client.scenes.replays import ReplayPlayerScene
    from client.scenes.title import TitleScene, start_match
    from game import registry, replay, settings, storage
    from game.match import Match, Seat

    # what interrupted saves left behind, cleaned off the loop thread
    threading.Thread(target=storage.remove_stale_temporaries, daemon=True,
                     name="clean-temporaries").start()
    from ai import compiled  # compiled searches loaded (or built once) before the first move
    threading.Thread(target=compiled.warm_up, daemon=True, name="warm-up").start()
    try:
        app = App(fullscreen=bool(settings.get("fullscreen")))
    except NoDisplay as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 3
    from ai import worker
    worker.start_bot_process()  # the searches' own process, which loads them as it starts
    app.push(TitleScene(app))
    if args.demo:
        if args.demo not in registry.available():
            print(f"error: unknown game {args.demo!r}", file=sys.stderr)
            return 2
        level = args.ai if args.ai in LEVELS else "normal"
        seats = [Seat("ai", f"{level.title()} bot {i + 1}", level)
                 for i in range(registry.get(args.demo).players)]
        start_match(app, Match(args.demo, None, args.seed, seats))
        if not isinstance(app.top, PlayScene):
            return 2
    elif args.replay:
        try:
            match, _ = replay.load_replay(args.replay)
        except storage.FileError as exc:
            print(f"error: {args.replay}: {exc}", file=sys.stderr)
            return 2
        app.push(ReplayPlayerScene(app, match))
    app.run()
    # All is saved and the window is closed: what is left lives until the process ends, and
    # the interpreter's last collection of it (numba's kernels above all) kept a killed arcade
    # for a second or more.
    gc.freeze()
    return 0


def desktop_shortcut(remove: bool) -> int:
    """--install-shortcut / --remove-shortcut."""
    from game import shortcut
    if not shortcut.supported():
        print("error: desktop entries are for Linux; on Windows and macOS open the app folder "
              "and pin or drag PaperArcade from there (see README)", file=sys.stderr)
        return 2
    try:
        paths = shortcut.remove_shortcut() if remove else shortcut.install_shortcut()
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for path in paths:
        print(("removed " if remove else "wrote ") + str(path))
    return 0


def run_module(argv: list[str]) -> int:
    """`-m MODULE ARGS` in the PyInstaller app, whose executable is not a Python: the bots'
    helper programs (a solver's table builder, the agent program) start this way."""
    import runpy
    sys.argv = argv[1:]
    try:
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return 0


def main(argv: list[str] | None = None) -> int:
    if getattr(sys, "frozen", False):
        import multiprocessing
        multiprocessing.freeze_support()  # the bot process starts as this executable
        rest = sys.argv[1:] if argv is None else argv
        if rest[:1] == ["-m"] and len(rest) > 1:
            return run_module(rest)
    args = parse_args(argv)
    if args.install_shortcut or args.remove_shortcut:
        return desktop_shortcut(args.remove_shortcut)
    if args.headless:
        if args.demo:
            return headless_demo(args.demo, args.ai, args.seconds, args.seed)
        if args.replay:
            return headless_replay(args.replay)
        if args.host or args.join:
            return headless_lan(args)
        print("error: --headless goes with --demo, --replay, --host or --join", file=sys.stderr)
        return 2
    if args.host or args.join:
        print("error: --host and --join without --headless: use the LAN lobby in the arcade",
              file=sys.stderr)
        return 2
    return run_window(args)


if __name__ == "__main__":
    sys.exit(main())
