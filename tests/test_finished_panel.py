"""A finished game's panel offers only what a finished game can do: no Pause, Step or Speed
for a bot game that has ended, no Hint or Autoplay on a board with no move left (they were
enabled and did nothing)."""

import random

import pygame
import pytest

from client.scenes.base import start_match
from client.scenes.play import PlayScene
from game.match import Match, Seat

BOARD_TOOLS = ("Hint", "Autoplay", "Speed", "Show hint", "Hide hint")


def finished(game_id: str, seats: list[Seat], options: dict | None = None) -> Match:
    match = Match(game_id, options, 7, seats)
    rng = random.Random(7)
    while not match.over:
        match.play(rng.choice(match.legal_moves()))
    return match


def panel(scene: PlayScene) -> dict[str, bool]:
    return {b.label: b.enabled for b in scene.panel_buttons.buttons}


@pytest.mark.parametrize("game_id, options", [("g2048", None), ("foxhunt", None),
                                              ("dots", {"rows": 2, "cols": 2})])
def test_a_finished_game_offers_no_board_tools(h, game_id, options):
    seats = [Seat("human", "Ann")] if game_id in ("g2048", "foxhunt") else \
        [Seat("human", "Ann"), Seat("human", "Ben")]
    start_match(h.app, finished(game_id, seats, options))
    h.frames(3)
    play = next(s for s in h.app.stack if isinstance(s, PlayScene))
    buttons = panel(play)
    tools = {label: on for label, on in buttons.items() if label.startswith(BOARD_TOOLS)}
    assert tools and not any(tools.values()), buttons
    assert buttons.get("Rules") and buttons.get("Menu (Esc)")


def test_a_finished_bot_game_cannot_be_paused_or_stepped(h):
    bots = [Seat("ai", "A", "easy"), Seat("ai", "B", "easy")]
    start_match(h.app, finished("dots", bots, {"rows": 2, "cols": 2}))
    h.frames(3)
    play = next(s for s in h.app.stack if isinstance(s, PlayScene))
    buttons = panel(play)
    watch = {label: on for label, on in buttons.items()
             if label.startswith(("Pause", "Resume", "Step", "Speed"))}
    assert len(watch) == 3 and not any(watch.values()), buttons
    paused = play.table.paused
    play.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p, mod=0, unicode="p"))
    assert play.table.paused == paused  # its key does nothing either
