"""Secrets between two people at one screen (issue 29, 1-2): while seat A has the computer,
nothing shown may depend on seat B's secrets; during the hand-over, on neither seat's.

At the table: over many generated hot-seat games of planes and Banqi with fog, the view the
table gives the board is exactly the rules' view for the seat at the screen, and nothing during
a hand-over. On pixels: see tests/test_secrets_pixels.py.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.match import Match, Seat
from game.rules import planes
from players.base import HumanController
from players.table import Table

TWO = [Seat("human", "Ann"), Seat("human", "Ben")]


def random_layout(rng: random.Random, size: int = 10, count: int = 3) -> list:
    index, _layouts = planes.layouts(size, count)
    every = planes.all_planes(size)
    return [list(every[p]) for p in index[rng.randrange(len(index))]]


def hot_seat(game: str, options: dict | None, seed: int) -> tuple[Table, list[float]]:
    now = [0.0]
    match = Match(game, options, seed, [Seat(s.kind, s.name) for s in TWO])
    table = Table(match, [HumanController(), HumanController()], records=False,
                  now=lambda: now[0], io=lambda work: work())
    return table, now


def check_sight(table: Table) -> None:
    """The rule, on one look at the table."""
    sight = table.sight()
    m = table.match
    if table.needs_handover():
        assert sight.view is None and sight.viewer is None and sight.legal == []
        return
    if not m.over:
        assert sight.last_move is None  # the move as played is nobody's here: the view says
    if sight.viewer is not None:
        assert sight.view == m.rules.view(m.state, sight.viewer)
        assert sight.my_turn == (m.to_move() == sight.viewer)
    elif sight.view is not None:  # the whole truth only once the game is over
        assert m.over


def play_hot_seat(table: Table, now: list[float], rng: random.Random, plies: int) -> int:
    """Play up to `plies` random moves as two people at one screen would; returns how many
    hand-overs happened."""
    m, handovers = table.match, 0
    for _ in range(plies * 4):
        if m.over or len(m.moves) >= plies:
            break
        check_sight(table)
        if table.revealing:
            if rng.random() < 0.5:
                now[0] += 3.0  # the reveal ends by itself
                table.tick()
            else:
                table.end_reveal()  # a key pressed
            continue
        if table.needs_handover():
            handovers += 1
            table.take_seat(m.to_move())
            continue
        seat = table.human_to_move()
        assert seat is not None
        if m.setup_pending():
            move = random_layout(rng)
        else:
            move = rng.choice(m.rules.legal_moves_from_view(m.view(seat), m.options))
        assert table.play(move) is None
        table.tick()
    check_sight(table)
    return handovers


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), plies=st.integers(1, 40))
def test_planes_hot_seat_shows_each_seat_its_own_view_and_nothing_at_a_hand_over(seed, plies):
    table, now = hot_seat("planes", None, seed)
    assert play_hot_seat(table, now, random.Random(seed), plies) >= 1


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), plies=st.integers(1, 60))
def test_fog_banqi_hot_seat_shows_each_seat_its_own_view_and_nothing_at_a_hand_over(seed,
                                                                                   plies):
    table, now = hot_seat("banqi", {"fog": True}, seed)
    assert play_hot_seat(table, now, random.Random(seed), plies) >= 1
