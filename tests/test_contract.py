"""The declared rules contract (game.rules.Rules), checked member by member for every registered
game and for the test games, and the ways a game ends, round-tripped through saves and replays."""

import inspect
import random

import pytest

from game import registry, replay, saves
from game.match import Match
from game.rules import Rules, RulesError, Termination, rules_members
from tests.fakes.cancel import frozen_clock

GAMES = registry.available()
TEST_GAMES = ("tests.fakes.race", "tests.agents.hide", "tests.agents.solo")
FUNCTIONS = [n for n in rules_members() if n not in Rules.__annotations__]


def _modules():
    import importlib
    return [registry.rules(g) for g in GAMES] + [importlib.import_module(p) for p in TEST_GAMES]


@pytest.mark.parametrize("rules", _modules(), ids=lambda m: m.ID)
def test_every_member_of_the_contract_is_declared_with_its_type(rules):
    assert isinstance(rules, Rules)
    hints = {"ID": str, "TITLE": str, "TAGLINE": str, "PLAYERS": int, "SEAT_NAMES": tuple,
             "SEATS_NAMED_BY_TURN": bool, "HIDDEN": bool, "SETUP": bool, "CHANCE": bool,
             "UAI": bool, "OPTIONS": tuple, "RULES_TEXT": str}
    assert set(hints) == set(Rules.__annotations__)
    for name, kind in hints.items():
        assert type(getattr(rules, name)) is kind, name
    for name in FUNCTIONS:
        fn = getattr(rules, name)
        declared = inspect.signature(getattr(Rules, name)).parameters
        assert callable(fn), name
        # the Protocol's methods take self; a module's functions take the rest, by position
        assert len(inspect.signature(fn).parameters) >= len(declared) - 1, name
    assert rules.PLAYERS in (1, 2) and len(rules.SEAT_NAMES) == rules.PLAYERS
    assert rules.TAGLINE and len(rules.TAGLINE) <= 60


@pytest.mark.parametrize("game_id", GAMES)
def test_score_is_valid_mid_game_and_agrees_with_the_outcome(game_id):
    rules = registry.rules(game_id)
    rng = random.Random(3)
    m = _random_match(game_id, rng, 6)
    assert len(rules.score(m.state)) == rules.PLAYERS
    assert all(type(s) is int for s in rules.score(m.state))
    while not m.over:
        _random_move(m, rng)
    out = m.outcome()
    assert isinstance(out.termination, Termination) and out.reason
    assert tuple(out.score) == tuple(rules.score(m.state))


@pytest.mark.parametrize("game_id", GAMES)
def test_legal_moves_from_the_view_equal_the_rules(game_id):
    rules = registry.rules(game_id)
    rng = random.Random(5)
    m = _random_match(game_id, rng, 0)
    for _ in range(12):
        if m.over:
            break
        seat = m.to_move()
        if not m.setup_pending():
            from_view = rules.legal_moves_from_view(m.view(seat), m.options)
            assert sorted(map(str, from_view)) == sorted(map(str, m.legal_moves()))
        _random_move(m, rng)
    with pytest.raises(RulesError):
        rules.legal_moves_from_view({"nonsense": 1}, m.options)


def _random_move(m: Match, rng: random.Random) -> None:
    from ai.base import Budget, decide_setup
    if m.setup_pending():
        m.play(decide_setup(m.game_id, m.view(m.to_move()), "random",
                            Budget(1, now=frozen_clock()), rng))
    else:
        m.play(rng.choice(m.legal_moves()))


def _random_match(game_id: str, rng: random.Random, plies: int) -> Match:
    m = Match(game_id, None, rng.randrange(1000))
    while not m.over and (len(m.moves) < plies or m.setup_pending()):
        _random_move(m, rng)
    return m


ENDINGS = {
    "natural": lambda m: None,
    "resignation": lambda m: m.resign(m.to_move()),
    "agreed draw": lambda m: m.agree_draw(),
    "time": lambda m: m.resign(m.to_move(), "program x was too slow", Termination.TIME),
    "illegal move": lambda m: m.resign(m.to_move(), "played z9", Termination.ILLEGAL_MOVE),
    "failure": lambda m: m.resign(m.to_move(), "program x exited", Termination.FAILURE),
    "disconnect": lambda m: m.resign(m.to_move(), "the other player left",
                                      Termination.DISCONNECT),
}


@pytest.mark.parametrize("ending", ENDINGS)
def test_every_ending_round_trips_through_a_save_and_a_replay(race, ending, tmp_path):
    m = Match(race, None, 11)
    m.play(1)
    m.play(2)
    ENDINGS[ending](m)
    if ending == "natural":
        while not m.over:
            m.play(m.legal_moves()[0])
    out = m.outcome()
    assert out is not None
    if ending != "natural":
        assert out.termination.value == ending
        assert out.score == (1, 2)  # the real score, not 0-0
    back, body = replay.load_replay(replay.save_replay(m, 1.0, tmp_path))
    assert back.outcome() == out and back.result_line() == m.result_line()
    assert body["result"]["termination"] == out.termination.value
    assert saves.load(saves.save(m, f"end {ending}")).outcome() == out


def test_a_resigned_game_shows_its_real_score(race):
    m = Match(race, None, 2)
    m.play(3)
    m.resign(1)
    out = m.outcome()
    assert (out.winner, out.score, out.termination) == (0, (3, 0), Termination.RESIGNATION)
    assert out.reason == "Player 2 (second) resigned"
    assert m.result_line().endswith("3-0 (Player 2 (second) resigned)")


def test_records_written_before_endings_existed_still_load(race):
    m = Match(race, None, 4)
    m.play(2)
    old = {k: v for k, v in m.to_record().items() if k != "ending"}
    drawn = Match.from_record({**old, "drawn": "Draw agreed"}).outcome()
    assert drawn.winner is None and drawn.termination is Termination.AGREED_DRAW
    resigned = Match.from_record({**old, "resigned": 0, "resign_reason": ""}).outcome()
    assert resigned.winner == 1 and resigned.termination is Termination.RESIGNATION


@pytest.mark.parametrize("ending", [{"loser": 5, "termination": "time"},
                                    {"loser": 0, "termination": "bored"},
                                    {"loser": True, "termination": "time"}, "time"])
def test_a_damaged_ending_is_refused(race, ending):
    record = {**Match(race, None, 1).to_record(), "ending": ending}
    with pytest.raises(RulesError):
        Match.from_record(record)
