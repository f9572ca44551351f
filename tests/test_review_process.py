"""A review run in its own process: the same judgement as in this one, and a cancel ends it."""

from __future__ import annotations

import multiprocessing
import random
import threading

from ai.review import Review, Settings
from ai.review_process import ProcessReview
from game.match import Match

BOUNDED = Settings(seconds=600.0, limit=2)  # bounded by plies, never by the clock


def _game(plies: int) -> Match:
    rng = random.Random(5)
    match = Match("jungle", None, 5)
    for _ in range(plies):
        match.play(rng.choice(match.legal_moves()))
    return match


def test_a_review_in_its_own_process_judges_as_one_in_this_process():
    match = _game(6)
    here = Review(match, BOUNDED)
    list(here.run())
    there = ProcessReview(match, BOUNDED)
    steps = [p.done for p in there.run()]
    assert steps == list(range(1, 13)) and there.progress.share == 1.0  # 6 judged, 6 settled
    assert there.result is not None
    assert there.result["plies"] == here.result["plies"]


def test_a_cancelled_review_process_ends_with_no_result():
    cancel = threading.Event()
    job = ProcessReview(_game(30), Settings(seconds=600.0, limit=5), cancel)
    for step in job.run():
        assert step.done >= 1
        cancel.set()
    assert job.result is None and job.done < job.total
    assert not [p for p in multiprocessing.active_children() if p.name == "review"]
