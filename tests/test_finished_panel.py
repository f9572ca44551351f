"""A finished game's panel offers only what a finished game can do: no Pause, Step or Speed
for a bot game that has ended, no Hint or Autoplay on a board with no move left (they were
enabled and did nothing)."""

import random

import pygame
import pytest

from client.scenes.base import start_match
from client.scenes.play import PlayScene
from game import registry
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


@pytest.mark.parametrize("game_id, turn_words", [("ataxx", "to play"),
                                                 ("dots", "to draw a line")])
def test_a_resigned_games_panel_says_it_is_over_not_whose_turn_it_is(h, game_id, turn_words):
    """Resigned, then "Look at the board": the panel still read "Move 5, x to play"."""
    match = Match(game_id, {"rows": 2, "cols": 2} if game_id == "dots" else None, 5,
                  [Seat("human", "Ann"), Seat("human", "Ben")])
    match.play(match.legal_moves()[0])
    start_match(h.app, match)
    h.frames(2)
    play = next(s for s in h.app.stack if isinstance(s, PlayScene))
    assert any(turn_words in line for line in play.status_lines)
    play.table.resign()  # the seat to move, hot-seat
    h.frames(3)
    assert match.over
    assert not any(turn_words in line for line in play.status_lines), play.status_lines
    assert "Game over" in play.status_lines


def test_a_finished_hunt_shows_no_hint_line(h):
    match = Match("foxhunt", None, 4, [Seat("human", "Ann")])
    start_match(h.app, match)
    h.frames(2)
    play = next(s for s in h.app.stack if isinstance(s, PlayScene))
    play.board.toggle_heat()
    h.frames(2)
    assert any(line.startswith("Hint: chance") for line in play.status_lines)
    rng = random.Random(4)
    while not match.over:
        play.table.play(rng.choice(match.legal_moves()))
    h.frames(3)
    assert not any(line.startswith("Hint: chance") for line in play.status_lines)


def test_2048s_panel_says_why_best_stands_still_once_autoplay_has_moved(h):
    """Best stopped following the score after a little autoplay, and only the result card
    said why."""
    match = Match("g2048", None, 8, [Seat("human", "Ann")])
    start_match(h.app, match)
    h.frames(2)
    play = next(s for s in h.app.stack if isinstance(s, PlayScene))
    assert not any("sets no best" in line for line in play.status_lines)
    play.table.play(match.legal_moves()[0], helped=True)
    h.frames(2)
    assert any("sets no best" in line for line in play.status_lines)


@pytest.mark.parametrize("game_id", ["ataxx", "foxhunt", "jungle", "g2048"])
def test_menu_stays_where_it_was_when_the_game_ends(game_id):
    """At 800x560 the panel's buttons go in two columns, and the end of a game adds or takes
    one: Menu jumped from the bottom left to the bottom right, and Rules took its place."""
    from tests.harness import Harness
    harness = Harness((800, 560))
    try:
        seats = [Seat("human", "Ann")] if registry.get(game_id).players == 1 else \
            [Seat("human", "Ann"), Seat("ai", "Bot", "easy")]
        match = Match(game_id, None, 6, seats)
        start_match(harness.app, match)
        harness.frames(2)
        play = next(s for s in harness.app.stack if isinstance(s, PlayScene))

        def menu() -> pygame.Rect:
            return next(b.rect for b in play.panel_buttons.buttons if b.label.startswith("Menu"))
        before = menu()
        if registry.get(game_id).players == 2:
            play.table.resign()
        rng = random.Random(6)
        while not match.over:
            play.table.play(rng.choice(match.legal_moves()))
        harness.frames(3)
        play.refresh(animate=False)
        harness.frames(2)
        assert menu() == before
    finally:
        harness.close()


def test_a_line_the_first_reply_rule_bars_says_why_when_pressed(h):
    """The barred line showed red under the mouse, and a click on it did nothing, unexplained."""
    match = Match("dots", {"rows": 3, "cols": 3, "first_reply_rule": True}, 5,
                  [Seat("human", "Ann"), Seat("human", "Ben")])
    start_match(h.app, match)
    h.frames(2)
    play = next(s for s in h.app.stack if isinstance(s, PlayScene))
    play.table.play(0)
    h.frames(2)
    state = match.states[-1]
    barred = [line for line in range(play.board.lines)
              if line not in state.drawn and line not in match.legal_moves()]
    assert barred
    (x1, y1), (x2, y2) = play.board.line_points(barred[0])
    h.click(((x1 + x2) // 2, (y1 + y2) // 2))
    assert len(match.moves) == 1
    assert any("first reply rule" in text for text, _ in h.app.toasts), h.app.toasts
