"""bench/g2048_games.py: a game cut short goes on from its last kept place, as if never cut."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import g2048_games as games  # noqa: E402

from game.rules import g2048 as rules  # noqa: E402

MOVES = 260


def job(seed: int, keep: str | None, max_moves: int = MOVES) -> games.Job:
    """A game searched to a fixed depth with no clock, so the same seed plays the same game."""
    return (seed, 100.0, "hard", "heuristic", None, max_moves, 2, None, 0, keep)


class Killed(Exception):
    """Stands for the process being stopped in the middle of a game."""


def cut_at(monkeypatch: pytest.MonkeyPatch, moves: int) -> None:
    """The game stops at its moves-th move, after the place kept at the last hundred."""
    apply, made = rules.apply, []

    def counted(state, move):
        made.append(move)
        if len(made) == moves:
            raise Killed
        return apply(state, move)
    monkeypatch.setattr(rules, "apply", counted)


SAME = ("score", "best", "moves", "over", "boards")


@pytest.mark.timeout(120)
@pytest.mark.parametrize("seed,cut", [(3, 150), (8, 201), (11, 101)])
def test_a_game_cut_short_goes_on_from_its_place(tmp_path, monkeypatch, seed, cut):
    whole = games.play_game(job(seed, None))
    assert whole["moves"] == MOVES  # not over before the cut
    keep = str(tmp_path / f"r.jsonl.seed{seed}.partial")
    with monkeypatch.context() as m:
        cut_at(m, cut)
        with pytest.raises(Killed):
            games.play_game(job(seed, keep))
    kept = json.loads(Path(keep).read_text())
    assert len(kept["times"]) == cut // 100 * 100  # the last hundred it reached
    again = games.play_game(job(seed, keep))
    assert {k: again[k] for k in SAME} == {k: whole[k] for k in SAME}
    assert again["resumed"] == 1 and whole["resumed"] == 0
    assert sum(n for _, n in again["decisions"]) == MOVES


@pytest.mark.timeout(120)
@pytest.mark.parametrize("damage", ["other job", "cut file", "not a board", "short board"])
def test_a_place_of_another_game_or_a_damaged_one_is_not_taken_up(tmp_path, monkeypatch,
                                                                  damage):
    whole = games.play_game(job(5, None))
    keep = str(tmp_path / "r.jsonl.seed5.partial")
    with monkeypatch.context() as m:
        cut_at(m, 150)
        with pytest.raises(Killed):
            games.play_game(job(5, keep, max_moves=MOVES + 1) if damage == "other job"
                            else job(5, keep))
    text = Path(keep).read_text()
    if damage == "cut file":
        Path(keep).write_text(text[: len(text) // 2])
    elif damage == "not a board":
        Path(keep).write_text(text.replace('"cells": [', '"cells": ["x", '))
    elif damage == "short board":
        place = json.loads(text)
        Path(keep).write_text(json.dumps({**place, "cells": place["cells"][:15]}))
    again = games.play_game(job(5, keep))
    assert again["resumed"] == 0
    assert {k: again[k] for k in SAME} == {k: whole[k] for k in SAME}


def test_the_place_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    """A write stopped half way leaves the last place as it was."""
    keep = str(tmp_path / "r.jsonl.seed2.partial")
    with monkeypatch.context() as m:
        cut_at(m, 150)
        with pytest.raises(Killed):
            games.play_game(job(2, keep))
    before = Path(keep).read_text()

    def broken(obj, f):
        f.write('{"job": ')
        raise Killed
    monkeypatch.setattr(games.json, "dump", broken)
    with pytest.raises(Killed):
        games.play_game(job(2, keep))
    assert Path(keep).read_text() == before


def test_runs_at_other_settings_on_one_results_file_keep_their_places_apart(tmp_path):
    """The place was named by the seed alone: a second run on the same file at other settings
    overwrote the first's, and deleted it at its end."""
    results = str(tmp_path / "r.jsonl")
    here, there = job(4, None), job(4, None, max_moves=MOVES + 1)
    assert games.progress_path(results, here) == games.progress_path(results, job(4, "x"))
    assert games.progress_path(results, here) != games.progress_path(results, there)
    assert games.progress_path(results, here) != games.progress_path(results, job(5, None))
    assert games.progress_path(None, here) is None
