"""Seat kinds and bot levels are enums: files keep their strings, unknown ones are refused, and
every place that dispatches on them has an entry for each member."""

import json

import pytest

from ai.base import DEFAULT_SECONDS, LEVEL_TITLES, LEVELS, check_level
from game import stats
from game.match import Level, Match, Seat, SeatKind
from game.rules import RulesError
from players.base import HumanController
from players.bot import AIController
from players.driver import CONTROLLERS, controller_for
from players.table import OPPONENTS


def test_a_file_s_plain_strings_become_members_and_go_back_as_strings():
    seat = Seat.from_dict({"kind": "ai", "name": "Bot", "level": "hard"})
    assert seat.kind is SeatKind.AI and seat.level is Level.HARD
    raw = seat.to_dict()
    assert raw == {"kind": "ai", "name": "Bot", "level": "hard", "command": ""}
    assert all(type(v) is str for v in raw.values())
    assert Seat.from_dict(json.loads(json.dumps(raw))) == seat


def test_an_old_seat_without_a_level_is_a_normal_one():
    seat = Seat.from_dict({"kind": "human", "name": "Ann"})
    assert seat.level is Level.NORMAL and seat.kind is SeatKind.HUMAN


@pytest.mark.parametrize("raw, words", [
    ({"kind": "robot"}, "unknown seat kind 'robot'; seat kinds: human, ai, remote, agent"),
    ({"kind": None}, "unknown seat kind None"),
    ({"kind": "ai", "level": "godlike"}, "unknown bot level 'godlike'; bot levels: random, easy"),
    ({"kind": "ai", "level": "\x00expert"}, "unknown bot level 'expert'"),
    (["ai"], "bad seat ['ai']"),
])
def test_an_unknown_kind_or_level_is_refused_by_name(raw, words):
    with pytest.raises(RulesError) as caught:
        Seat.from_dict(raw)
    assert words in str(caught.value)


def test_a_seat_made_from_strings_holds_members():
    seat = Seat("agent", "prog", "easy", "prog --fast")
    assert seat.kind is SeatKind.AGENT and seat.level is Level.EASY
    assert f"{seat.kind} {seat.level}" == "agent easy"  # a member formats as its value
    with pytest.raises(ValueError):
        Seat("robot")


def test_every_kind_has_a_controller_and_a_statistics_key():
    assert set(CONTROLLERS) == set(SeatKind) == set(OPPONENTS)
    assert isinstance(controller_for(Seat("human")), HumanController)
    bot = controller_for(Seat("ai", "Bot", "hard"), seconds=0.1)
    try:
        assert isinstance(bot, AIController) and bot.level is Level.HARD
    finally:
        bot.close()
    with pytest.raises(ValueError, match="over the LAN"):
        controller_for(Seat("remote"))
    keys = {kind: OPPONENTS[kind](Seat(kind, level="easy")) for kind in SeatKind}
    assert keys[SeatKind.AI] == "easy" and keys[SeatKind.AGENT] == stats.PROGRAM
    assert keys[SeatKind.REMOTE] == stats.LAN


def test_every_level_has_a_title_and_seconds_and_strings_name_them():
    assert LEVELS == tuple(Level) and set(LEVEL_TITLES) == set(DEFAULT_SECONDS) == set(Level)
    assert check_level("hard") is Level.HARD
    assert DEFAULT_SECONDS["hard"] == DEFAULT_SECONDS[Level.HARD]  # a plain string finds it
    with pytest.raises(ValueError, match="unknown level 'expert'"):
        check_level("expert")


def test_a_saved_match_keeps_the_strings(race):
    m = Match(race, None, 1, [Seat("human", "Ann"), Seat("ai", "Bot", "random")])
    seats = m.to_record()["seats"]
    assert seats[1] == {"kind": "ai", "name": "Bot", "level": "random", "command": ""}
    assert [type(s["kind"]) for s in seats] == [str, str]
    assert Match.from_record(m.to_record()).seats == m.seats


def test_every_kind_of_arena_player_has_a_controller_and_a_seat():
    from players import arena
    assert set(arena.CONTROLLERS) == set(arena.SEATS) == set(arena.PlayerKind)
    seats = {kind: arena.seat_for(arena.parse_spec(f"{kind}:hard"), "A")
             for kind in arena.PlayerKind}
    assert seats[arena.PlayerKind.BUILTIN] == Seat("ai", "A: builtin:hard", "hard")
    assert seats[arena.PlayerKind.CMD].command == "hard"
    assert seats[arena.PlayerKind.UAI].command == "uai:hard"
    assert {s.kind for s in seats.values()} == {SeatKind.AI, SeatKind.AGENT}
    with pytest.raises(ValueError, match="unknown level 'expert'"):
        arena.parse_spec("builtin:expert")
