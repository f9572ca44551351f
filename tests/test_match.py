"""The match: moves, undo, resign, records and rebuilding from them."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.match import Match, Seat
from game.rules import Option, RulesError, normalize_with


def test_play_and_outcome(race):
    m = Match(race, {"pile": 5}, seed=1)
    for move in (1, 3, 1):
        m.play(move)
    assert m.over and m.outcome().winner == 0
    assert m.result_line() == "race: first wins 2-3 (took the last counter)"


def test_illegal_and_malformed_moves_change_nothing(race):
    m = Match(race, None, seed=1)
    m.play(2)
    before = (list(m.moves), m.state)
    for bad in (4, 0, "2", None, [1], 2.0):
        with pytest.raises(RulesError):
            m.play(bad)
        assert (m.moves, m.state) == before


def test_undo_and_undo_for(race):
    m = Match(race, {"pile": 9}, seed=3)
    for move in (1, 2, 3, 1):
        m.play(move)
    assert m.to_move() == 0
    assert m.undo_for(0) == 2  # back past the bot's move to the human's previous turn
    assert m.moves == [1, 2] and m.to_move() == 0
    m.play(1)
    assert m.undo_for(0) == 1  # the bot has not answered yet: just the human's move
    assert m.undo(5) == 2 and m.moves == []
    assert m.undo() == 0


def test_undo_reseeds_hidden_chance_and_record_replays_exactly(race):
    m = Match(race, {"pile": 9}, seed=3)
    coins = set()
    for _ in range(6):
        m.play(1)
        m.undo()
        coins.add(m.view(None)["coin"])
    assert len(coins) > 1  # the hidden value is redrawn, so undo does not reveal it for free
    m.play(2)
    rebuilt = Match.from_record(m.to_record())
    assert rebuilt.states == m.states and rebuilt.reseeds == m.reseeds


def test_resign_and_record(race):
    m = Match(race, None, seed=5, seats=[Seat("human", "Ann"), Seat("ai", "Bot", "hard")])
    m.play(1)
    m.resign(0)
    assert m.outcome().winner == 1 and "Ann" in m.outcome().reason
    with pytest.raises(RulesError):
        m.play(1)
    again = Match.from_record(m.to_record())
    assert again.outcome() == m.outcome() and again.seats == m.seats
    m.undo()
    assert not m.over


@pytest.mark.parametrize("record", [
    None, [], {"game": "race"}, {"game": "nope", "seed": 1},
    {"game": "race", "seed": "x"}, {"game": "race", "seed": 1, "moves": [1, 9]},
    {"game": "race", "seed": 1, "moves": "123"}, {"game": "race", "seed": 1, "options": {"x": 1}},
    {"game": "race", "seed": 1, "seats": [{"kind": "alien"}]},
])
def test_bad_records_raise_rules_error(race, record):
    with pytest.raises((RulesError, KeyError)):
        Match.from_record(record)


def test_options_are_checked():
    spec = (Option("n", "N", ((1, "one"), (2, "two")), 1),)
    assert normalize_with(spec, None) == {"n": 1}
    assert normalize_with(spec, {"n": 2}) == {"n": 2}
    for bad in ({"n": 3}, {"n": True}, {"m": 1}, [1]):
        with pytest.raises(RulesError):
            normalize_with(spec, bad)


# games that end within the steps drawn (and race's hidden coin, which an undo redraws)
ENDING = [("race", {"pile": 7}), ("dots", {"rows": 2, "cols": 2}), ("foxhunt", {"size": 8}),
          ("banqi", None), ("ataxx", None)]


@settings(max_examples=60, deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture])  # race's registration is the same for every example
@given(which=st.sampled_from(range(len(ENDING))), seed=st.integers(0, 999),
       steps=st.lists(st.integers(0, 6), min_size=1, max_size=80))
def test_the_outcome_said_is_always_the_rules_outcome_of_the_present_state(
        race, which, seed, steps):
    """The match works an outcome out once for each state: through moves, undos (which redraw
    hidden chance), the end and undos past it, what it says is what the rules say of the state
    it holds."""
    game, options = ENDING[which]
    m = Match(game, options, seed)
    rng = random.Random(seed)
    for step in steps:
        if step == 0 or m.over:
            m.undo(rng.randint(1, 3))
        else:
            m.play(rng.choice(m.legal_moves()))
        assert m.outcome() == m.rules.outcome(m.state)
        assert m.over == (m.rules.outcome(m.state) is not None)
