"""Every screen laid out at the smallest window and at full HD: nothing outside the window,
no button over another, every label readable in its button or chip."""

import random

import pygame
import pytest

from ai.base import Budget
from client.scenes.base import start_match
from client.ui import theme
from client.ui.widgets import LABEL_MARGIN, ChoiceRow
from game import registry
from game.match import Match, Seat
from tests.fakes.cancel import frozen_clock
from tests.harness import Harness

SIZES = [(800, 560), (1920, 1080)]
MIN_TEXT = 12  # px: a label squeezed below this is not readable


def _played(game_id: str, plies: int) -> Match:
    info = registry.get(game_id)
    seats = [Seat("human", "Ann"), Seat("ai", "Bot", "easy")][:info.players]
    match = Match(game_id, None, 3, seats)
    rng = random.Random(3)
    for _ in range(plies):
        if match.over:
            break
        if match.setup_pending():
            match.play(info.ai_module().choose_setup(match.view(match.to_move()),
                                                     Budget(1, now=frozen_clock()), "easy", rng))
        else:
            match.play(rng.choice(match.legal_moves()))
    return match


def _screens():
    yield "title", lambda app: None
    yield "settings", lambda app: app.push("settings")
    yield "replays", lambda app: app.push("replays")
    yield "watch", lambda app: app.push("setup", game_id=registry.available()[0], watch=True)
    yield "lobby", lambda app: app.push("lobby") if app.has_scene("lobby") else None
    for g in registry.available():
        yield f"{g} setup", lambda app, g=g: app.push("setup", game_id=g)
        yield f"{g} play", lambda app, g=g: start_match(app, _played(g, 0))
        yield f"{g} replay", lambda app, g=g: app.push("replay", match=_played(g, 40))


def _rows(scene) -> list[ChoiceRow]:
    found = []
    for value in vars(scene).values():
        items = value.values() if isinstance(value, dict) else (
            value if isinstance(value, list) else [value])
        found += [v for v in items if isinstance(v, ChoiceRow)]
    return found


def _fits(label: str, width: int) -> bool:
    return theme.font(MIN_TEXT).size(label)[0] <= width


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_screen_fits_the_window_cleanly(size):
    h = Harness(size)
    problems = []
    try:
        window = pygame.Rect((0, 0), h.app.size)
        assert window.size == size
        for name, open_screen in _screens():
            h.app.close_all()
            h.app.running = True
            h.app.push("title")
            open_screen(h.app)
            h.frames(2)
            buttons = h.find_buttons()
            for i, b in enumerate(buttons):
                if not window.contains(b.rect):
                    problems.append(f"{name}: {b.label!r} outside the window {b.rect}")
                if not b.icon and not _fits(b.label, b.rect.width - LABEL_MARGIN):
                    problems.append(f"{name}: {b.label!r} does not fit its button")
                for other in buttons[i + 1:]:
                    if b.rect.colliderect(other.rect):
                        problems.append(f"{name}: {b.label!r} over {other.label!r}")
            for row in _rows(h.top):
                if not window.contains(row.rect):
                    problems.append(f"{name}: row {row.label!r} outside the window")
                for chip, (_, label) in zip(row.chips, row.choices):
                    if not row.rect.contains(chip) or not _fits(label, chip.width - 6):
                        problems.append(f"{name}: {row.label!r} chip {label!r} squeezed")
            side = getattr(h.top, "side", None)
            if name.endswith(" play"):
                for b in h.top.panel_buttons.buttons:
                    if not side.contains(b.rect):
                        problems.append(f"{name}: {b.label!r} outside the side panel")
    finally:
        h.app.close_all()
        h.close()
    assert problems == []


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_banqi_captured_pieces_stay_inside_the_board_area(size):
    from client.boards.banqi import Board
    from game.rules import banqi as rules
    board = Board({}, rules.SEAT_NAMES)
    board.layout(pygame.Rect(12, 66, size[0] - 306, size[1] - 78))
    state = rules.new_game({}, 1)
    view = rules.view(state, None)
    view["captured"] = list("KAAEERRNNCCPPPPP") + list("kaaeerrnnccppppp")
    board.set_view(view, [], my_turn=False, viewer=None)
    surface = pygame.Surface(size)
    surface.fill((1, 2, 3))
    board.draw(surface)
    below = surface.subsurface(pygame.Rect(0, board.rect.bottom, size[0],
                                           size[1] - board.rect.bottom))
    assert all(below.get_at((x, y))[:3] == (1, 2, 3)
               for x in range(0, below.get_width(), 4) for y in range(below.get_height()))
