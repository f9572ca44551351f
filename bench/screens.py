"""Render every screen of every game headless into PNGs, to look at after a change to a screen.

    python bench/screens.py --out DIR [--sizes 800x560,1280x800] [--game ID] [--lang zh_CN]
                            [--only review]

Each screen is drawn at each size as DIR/<size>/<name>.png; the script prints one line per file
and a count at the end. Files go to a temporary home, never the player's.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ["PAPER_ARCADE_HOME"] = tempfile.mkdtemp(prefix="paper-arcade-screens-")

import pygame  # noqa: E402

from ai.base import Budget  # noqa: E402
from ai.worker import shutdown_bot_process  # noqa: E402
from client.app import App  # noqa: E402
from client.scenes.base import start_match  # noqa: E402
from game import i18n, registry, replay, stats  # noqa: E402
from game.match import Match, Seat  # noqa: E402


def played(game_id: str, plies: int, seed: int, seats: list[Seat]) -> Match:
    """A match with up to `plies` random legal moves played (fewer if it ends first)."""
    match = Match(game_id, None, seed, seats)
    rng = random.Random(seed)
    bot = match.info.ai_module()
    for _ in range(plies):
        if match.over:
            break
        if match.setup_pending():
            view = match.view(match.to_move())
            match.play(bot.choose_setup(view, Budget(1.0), "easy", rng))
        else:
            match.play(rng.choice(match.legal_moves()))
    return match


def finished(game_id: str, seed: int, seats: list[Seat]) -> Match:
    return played(game_id, 100000, seed, seats)


def human_and_bot(game_id: str) -> list[Seat]:
    if registry.get(game_id).players == 1:
        return [Seat("human", "You")]
    return [Seat("human", "You"), Seat("ai", "Bot", "easy")]


def mid_game(game_id: str) -> Match:
    """A match some way in, with the person to move."""
    for plies in (12, 11, 6, 5, 2, 1, 0):
        match = played(game_id, plies, 7, human_and_bot(game_id))
        if not match.over and match.to_move() == 0:
            return match
    return Match(game_id, None, 7, human_and_bot(game_id))


def settle(app: App, frames: int = 30) -> None:
    for _ in range(frames):
        app.step([], 1 / 60)
    time.sleep(0.02)
    app.step([], 1 / 60)


def screens(game_ids: list[str]) -> list[tuple[str, Callable[[App], None]]]:
    """(name, how to open it from the title) for every screen."""
    out: list[tuple[str, Callable[[App], None]]] = [
        ("title", lambda app: None),
        ("title-quit", lambda app: app.top.back()),
        ("settings", lambda app: app.push("settings")),
        ("replays", lambda app: app.push("replays")),
        ("loads", lambda app: app.push("loads")),
        ("watch-setup", lambda app: app.push("setup", game_id=game_ids[0], watch=True)),
        ("stats", lambda app: app.push("stats", game_id=game_ids[0])),
    ]
    if "lobby" in _scene_names():
        out.append(("lobby", lambda app: app.push("lobby")))
    for g in game_ids:
        out += [
            (f"{g}-setup", lambda app, g=g: app.push("setup", game_id=g)),
            (f"{g}-rules", lambda app, g=g: app.push("rules", game_id=g)),
            (f"{g}-play", lambda app, g=g: start_match(app, mid_game(g))),
            (f"{g}-result", lambda app, g=g: _result(app, g)),
            (f"{g}-replay", lambda app, g=g: app.push(
                "replay", match=finished(g, 3, human_and_bot(g)))),
            (f"{g}-review", lambda app, g=g: _review(app, g)),
        ]
        if registry.get(g).players == 2:
            out.append((f"{g}-play-clock", lambda app, g=g: start_match(
                app, mid_game(g), time_control="10+5")))
        if registry.get(g).players == 2 and registry.get(g).rules.HIDDEN:
            out.append((f"{g}-handover", lambda app, g=g: start_match(
                app, Match(g, None, 5, [Seat("human", "Ann"), Seat("human", "Ben")]))))
    return out


def _scene_names() -> set[str]:
    from client.scenes.table import SCENES
    return set(SCENES)


def _result(app: App, game_id: str) -> None:
    start_match(app, finished(game_id, 3, human_and_bot(game_id)))
    app.push("result", play=app.top)


REVIEWED: dict[str, Path] = {}  # each game's replay, with a review stored in it


def _review(app: App, game_id: str) -> None:
    """The review screen on the replay prepared, at its first marked move (read from the file,
    so the screen shows at once)."""
    match = finished(game_id, 3, human_and_bot(game_id))
    _m, body = replay.load_replay(REVIEWED[game_id])
    doc = replay.stored_review(body) or {}
    marked = [e["ply"] + 1 for e in doc.get("plies", []) if e.get("class", "ok") != "ok"]
    scene = app.push("review", match=match, path=REVIEWED[game_id],
                     ply=marked[0] if marked else len(match.moves) // 2)
    for _ in range(500):
        if getattr(scene, "state", "done") == "done":
            break
        app.step([], 1 / 60)
        time.sleep(0.01)


def prepare(game_ids: list[str]) -> None:
    """A replay of each game to list in the browser, and statistics to show."""
    from ai.review import QUICK, Review, Settings
    for g in game_ids:
        match = finished(g, 3, human_and_bot(g))
        path = replay.save_replay(match, 60.0)
        # a short review (a fiftieth of a second a position, two plies deep), kept as if quick:
        # the screen is the same, and the screens are drawn in a minute, not ten
        job = Review(match, Settings(0.02, 2))
        for _step in job.run():
            pass
        if job.result is not None:
            replay.store_review(path, {**job.result, "settings": QUICK.to_dict()})
        REVIEWED[g] = path
        solo = registry.get(g).players == 1
        for i, (opponent, result) in enumerate([("easy", "won"), ("easy", "won"),
                                                ("normal", "drawn"), ("hard", "lost"),
                                                ("lan", "won")]):
            stats.record(g, stats.SOLO if solo else opponent,
                         "lost" if solo and result == "drawn" else result,
                         1000 * (i + 1) if solo else None)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--sizes", default="800x560,1280x800")
    p.add_argument("--game", action="append", help="only these games (default: all)")
    p.add_argument("--lang", default="en", help="en, zh_CN or zh_TW")
    p.add_argument("--only", default="", help="only the screens whose name holds this text "
                                              "(e.g. review)")
    args = p.parse_args()
    game_ids = args.game or registry.available()
    prepare(game_ids)
    count = 0
    for size_text in args.sizes.split(","):
        w, h = (int(v) for v in size_text.split("x"))
        folder = Path(args.out) / size_text
        folder.mkdir(parents=True, exist_ok=True)
        app = App((w, h))
        i18n.set_language(args.lang)
        for name, open_screen in screens(game_ids):
            if args.only not in name:
                continue
            app.close_all()
            app.running = True
            app.toasts.clear()
            app.push("title")
            open_screen(app)
            settle(app)
            path = folder / f"{name}.png"
            pygame.image.save(app.screen, str(path))
            print(path)
            count += 1
        app.close_all()
    shutdown_bot_process()
    print(f"{count} screens")


if __name__ == "__main__":
    main()
