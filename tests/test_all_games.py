"""Every game in the registry, through the shared machinery: contract, replays, the client."""

import random

import pytest

from ai.base import Budget, decide, decide_setup
from client.scenes.play import PlayScene
from client.scenes.title import start_match
from game import registry, replay
from game.match import Match, Seat
from game.rules import RulesError
from tests.fakes.cancel import frozen_clock
from tests.fakes.ticking import TickingClock
from tests.harness import Harness

GAMES = registry.available()
MAX_PLIES = 3000


def random_playout(game_id: str, seed: int) -> Match:
    """Random moves (and random setups) until the game ends."""
    rng = random.Random(seed)
    m = Match(game_id, None, seed)
    while not m.over and len(m.moves) < MAX_PLIES:
        seat = m.to_move()
        if m.setup_pending():
            move = decide_setup(game_id, m.view(seat), "random", Budget(1, now=frozen_clock()),
                                rng)
        else:
            move = rng.choice(m.legal_moves())
        m.play(move)
    return m


@pytest.mark.parametrize("game_id", GAMES)
def test_contract(game_id):
    rules = registry.rules(game_id)
    for name in ("ID", "TITLE", "PLAYERS", "SEAT_NAMES", "HIDDEN", "OPTIONS", "RULES_TEXT"):
        assert hasattr(rules, name), name
    assert rules.ID == game_id and len(rules.SEAT_NAMES) == rules.PLAYERS
    a, b = rules.new_game(None, 7), rules.new_game(None, 7)
    assert a == b and hash(a) == hash(b)
    for bad in (object(), {"no": "such move"}, float("nan")):
        with pytest.raises(RulesError):
            rules.apply(a, rules.move_from_wire(bad))
    assert rules.new_game(None, 7) == a  # nothing changed


@pytest.mark.parametrize("game_id", GAMES)
def test_replay_rebuilds_the_same_final_position(game_id):
    m = random_playout(game_id, seed=11)
    assert m.over, f"{game_id} did not end in {MAX_PLIES} plies"
    path = replay.save_replay(m)
    again, body = replay.load_replay(path)
    assert again.state == m.state and again.moves == m.moves
    assert body["result"]["line"] == m.result_line() == again.result_line()


@pytest.mark.parametrize("game_id", GAMES)
def test_bots_see_only_views_and_answer_legally(game_id):
    rng = random.Random(3)
    m = Match(game_id, None, 5)
    for _ in range(6):
        if m.over:
            break
        seat = m.to_move()
        view = m.view(seat)
        budget = Budget(0.3, now=TickingClock(0.01))  # about thirty looks at its clock
        if m.setup_pending():
            m.play(decide_setup(game_id, view, "easy", budget, rng))
        else:
            move = decide(game_id, view, m.legal_moves(), "easy", budget, rng)
            assert move in m.legal_moves()
            m.play(move)


def _moves_going_on(match: Match) -> list:
    """The legal moves after which the game is not over (all of them if every one ends it)."""
    rules, state = match.rules, match.states[-1]
    legal = match.legal_moves()
    return [m for m in legal if rules.outcome(rules.apply(state, m)) is None] or legal


@pytest.mark.parametrize("game_id", GAMES)
def test_play_scene_against_a_bot_with_undo(game_id, tmp_path):
    h = Harness()
    try:
        players = registry.get(game_id).players
        seats = [Seat("human", "Me")] + [Seat("ai", "Bot", "random")] * (players - 1)
        match = Match(game_id, None, 21, seats)
        start_match(h.app, match)
        play = h.app.find(PlayScene)
        h.frames(3)
        rng = random.Random(1)
        for _ in range(3):
            h.wait_until(lambda: match.over or match.to_move() == 0, timeout=20)
            if match.over:
                break
            if match.setup_pending():
                move = decide_setup(game_id, match.view(0), "random",
                                    Budget(1, now=frozen_clock()), rng)
            else:  # a move that ends the game would leave nothing to undo (a finished game
                # is final): the random bot's replies vary, so Ataxx could be won in 5 plies
                move = rng.choice(_moves_going_on(match))
            assert play.try_move(move)
            h.frames(2)
        h.frames(30)
        h.screenshot(tmp_path / f"{game_id}.png")
        before, over = len(match.moves), match.over
        play.undo()
        if over:  # the bot's own move ended it: the end stands
            assert len(match.moves) == before and match.over
        else:
            assert len(match.moves) < before
            assert match.to_move() == 0
        h.frames(5)
    finally:
        h.close()
