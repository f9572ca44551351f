"""The replay's move list speaks each game's own notation, never raw numbers or records."""

import random
import re

import pygame
import pytest

from ai.base import Budget
from game.match import Match, Seat
from tests.fakes.cancel import frozen_clock
from tests.harness import Harness


@pytest.fixture
def h():
    harness = Harness((1100, 720))
    harness.app.push("title")
    yield harness
    harness.close()


def played(game_id: str, plies: int, seed: int = 2) -> Match:
    seats = [Seat("human", "Ann"), Seat("ai", "Bot", "easy")]
    match = Match(game_id, None, seed, seats[:1] if game_id == "g2048" else seats)
    rng = random.Random(seed)
    bot = match.info.ai_module()
    for _ in range(plies):
        if match.over:
            break
        if match.setup_pending():
            match.play(bot.choose_setup(match.view(match.to_move()),
                                        Budget(1, now=frozen_clock()), "easy", rng))
        else:
            match.play(rng.choice(match.legal_moves()))
    return match


def labels(h, match: Match) -> list[str]:
    player = h.app.push("replay", match=match)
    h.frame()
    return player.move_texts


def test_dots_lines_are_named_by_their_dots(h):
    texts = labels(h, played("dots", 6))
    assert all(re.fullmatch(r"[a-f]\d-[a-f]\d", t) for t in texts), texts


def test_planes_shots_say_the_cell_and_the_answer_and_layouts_stay_hidden(h):
    texts = labels(h, played("planes", 8))
    assert texts[:2] == ["planes placed", "planes placed"]
    assert all(re.fullmatch(r"[A-J]\d+ (miss|body|head)", t) for t in texts[2:]), texts
    assert not any("[" in t for t in texts)


def test_banqi_flips_show_the_piece_and_2048_has_no_seat_name(h):
    texts = labels(h, played("banqi", 1))
    assert re.fullmatch(r"[a-h][1-4] \S", texts[0]) and not texts[0][-1].isascii()
    match = played("g2048", 3)
    player = h.app.push("replay", match=match)
    h.key(pygame.K_END)
    h.frames(2)
    rows = [label for label in player.move_texts]
    assert rows[0].split()[-1] in ("up", "down", "left", "right") and "player" not in rows[0]
