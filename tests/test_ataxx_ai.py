"""The Ataxx bot: legal, on time, and it sees the obvious."""

import random

import pytest

from ai import ataxx as bot
from ai.base import Budget
from game.rules import ataxx as rules
from tests.fakes.ticking import TickingClock


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_answers_legally_within_budget(level):
    rng = random.Random(1)
    for layout in rules.LAYOUTS:
        s = rules.new_game({"layout": layout})
        move = bot.choose(rules.view(s, 0), rules.legal_moves(s),
                          Budget(0.15, now=TickingClock(0.005)), level, rng)  # its own clock
        assert move in rules.legal_moves(s)


def test_takes_the_big_capture():
    fen = "7/7/7/2ooo2/7/3x3/7 x 0 10"  # d3 converts all three o stones and wins
    s = rules.from_fen(fen)
    budget = Budget(0.5, now=TickingClock())
    move = bot.choose({"fen": fen}, rules.legal_moves(s), budget, "hard", random.Random())
    assert move == "d3"


def test_wins_a_won_ending():
    fen = "7/7/7/7/7/1o5/x6 x 0 10"  # x to move converts the last o stone
    s = rules.from_fen(fen)
    budget = Budget(0.3, now=TickingClock())
    move = bot.choose({"fen": fen}, rules.legal_moves(s), budget, "hard", random.Random())
    assert rules.outcome(rules.apply(s, move)).winner == 0


def test_passes_when_it_must():
    fen = "7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1"
    budget = Budget(0.2, now=TickingClock())
    assert bot.choose({"fen": fen}, ["0000"], budget, "hard", random.Random()) == "0000"


def test_cancel_answers_at_once():
    clock = TickingClock()
    b = Budget(30, now=clock)
    b.cancel.set()
    move = bot.choose({"fen": rules.START_FEN}, [], b, "hard", random.Random())
    assert move in rules.legal_moves(rules.new_game())
    assert clock.reads < 30 / clock.step / 10  # it never waited its budget out


def test_search_reports_depth_and_nodes():
    a = bot.analyse(rules.START_FEN, Budget(0.3, now=TickingClock(0.005)))
    assert a["depth"] >= 3 and a["nodes"] > 100 and a["move"] in rules.legal_moves(
        rules.new_game())
