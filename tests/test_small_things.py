"""Issue 30's smaller findings: the planes salt's length, matches of other than two players,
and cancelling one bot search without cancelling another's."""

import random
from types import SimpleNamespace

import pytest

from ai.base import Budget, decide_setup
from game.match import Match
from net.secrets import SALT_BYTES, commitment
from net.secrets.planes import PlaneLayouts
from tests.fakes.cancel import frozen_clock


def _layout() -> tuple[Match, list]:
    m = Match("planes", None, 5)
    layout = decide_setup("planes", m.view(0), "random",
                          Budget(0.0, now=frozen_clock()), random.Random(1))
    return m, layout


@pytest.mark.parametrize("salt", [b"", b"x", bytes(SALT_BYTES - 1), bytes(SALT_BYTES + 1),
                                  bytes(1 << 20)], ids=lambda s: f"{len(s)}-bytes")
def test_a_reveal_with_a_salt_of_the_wrong_length_does_not_check(salt):
    m, layout = _layout()
    side = SimpleNamespace(match=m, peer_commit=commitment(salt, layout), peer_name="Peer",
                           is_host=True)
    verdict = PlaneLayouts(side).check_reveal(salt, {"layout": layout})
    assert not verdict.ok and "salt" in verdict


def test_a_reveal_with_a_salt_of_the_right_length_checks():
    m, layout = _layout()
    salt = bytes(range(SALT_BYTES))
    side = SimpleNamespace(match=m, peer_commit=commitment(salt, layout), peer_name="Peer",
                           is_host=True)
    assert PlaneLayouts(side).check_reveal(salt, {"layout": layout}).ok


@pytest.fixture
def trio():
    from game import registry
    registry.register("trio", "tests.fakes.trio", "tests.fakes.trio", "tests.fakes.trio")
    yield "trio"
    registry.unregister("trio")


@pytest.fixture
def solo():
    from game import registry
    registry.register("solo", "tests.agents.solo", "tests.agents.solo", "tests.agents.solo")
    yield "solo"
    registry.unregister("solo")


def test_a_one_player_game_can_be_given_up_and_keeps_that_end(solo):
    m = Match(solo, None, 1)
    m.play(m.legal_moves()[0])
    m.resign(0, "program solo failed")
    out = m.outcome()
    assert m.over and out is not None and out.winner is None  # no seat 1 to win
    assert out.reason == "program solo failed"
    assert m.result_line().startswith("solo: over")
    again = Match.from_record(m.to_record())
    assert again.over and again.outcome().winner is None


def test_a_three_player_game_can_be_given_up_and_names_no_other_seat_winner(trio):
    m = Match(trio, None, 1)
    assert len(m.seats) == 3
    m.play(1)
    m.resign(1)
    out = m.outcome()
    assert m.over and out.winner is None  # "the other seat" is not one seat
    assert out.reason == "Player 2 (second) resigned"
    assert m.result_line() == "trio: over 1-0-0 (Player 2 (second) resigned)"
    again = Match.from_record(m.to_record())
    assert again.over and again.ending == m.ending


def test_a_three_player_game_plays_to_its_end(trio):
    m = Match(trio, {"pile": 5}, 1)
    while not m.over:
        m.play(1)
    assert m.outcome().winner == 1
    assert m.result_line() == "trio: second wins 2-2-1 (took the last counter)"


@pytest.fixture
def patient():
    from game import registry
    registry.register("patient", "tests.fakes.race", "tests.fakes.race", "tests.fakes.patient")
    yield "patient"
    registry.unregister("patient")


def test_cancelling_one_bot_search_leaves_another_alone(patient, tmp_path):
    import threading

    from ai.worker import AIWorker

    def view(name: str) -> dict:
        return {"release": str(tmp_path / name), "started": str(tmp_path / f"{name}.started")}

    def under_way(name: str) -> None:
        pause = threading.Event()
        for _ in range(6000):  # a bounded number of looks
            if (tmp_path / f"{name}.started").exists():
                return
            pause.wait(0.005)
        raise AssertionError(f"search {name} never started")

    a, b = AIWorker(), AIWorker()
    rng = random.Random(1)
    a.request_move(patient, view("a"), [1], "hard", 600.0, rng)
    under_way("a")
    b.request_move(patient, view("b"), [1], "hard", 600.0, rng)  # waits for a's to end
    a.cancel()
    (tmp_path / "b").write_text("go")  # b may answer as soon as it runs
    done = b.wait(60)
    assert done is not None and done.error is None and done.value == "finished"
    b.request_move(patient, view("c"), [1], "hard", 600.0, rng)
    under_way("c")
    a.request_move(patient, view("d"), [1], "hard", 600.0, rng)
    b.cancel()
    (tmp_path / "d").write_text("go")
    done = a.wait(60)
    assert done is not None and done.error is None and done.value == "finished"
