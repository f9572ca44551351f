"""A review run in a process of its own: its searches never hold the arcade's interpreter lock,
so the window keeps drawing while a game is analysed. It offers what ai.review.Review offers
(run, cancel, progress, entries, result), so a screen takes either."""

from __future__ import annotations

import multiprocessing as mp
import os
from collections.abc import Iterator
from multiprocessing.connection import Connection

from ai.review import Progress, Review, Settings, Steps
from ai.worker import die_with_parent
from game import registry
from game.match import Match

POLL_S = 0.05  # how often the parent looks for news or a cancel while it waits


def _serve(record: dict, settings: Settings, first: int, extra: tuple | None,
           parent_pid: int, out: Connection) -> None:
    """In the child: review the record, sending the entries and progress after each step."""
    die_with_parent(parent_pid, death_signal=True)
    if extra is not None:
        registry.register(*extra)
    review = Review(Match.from_record(record), settings, first=first)
    for step in review.run():
        out.send(("step", step.done, step.total, review.entries))
    out.send(("result", review.result))
    out.close()


class ProcessReview(Steps):
    """ai.review.Review's surface, the work done in a spawned process."""

    def run(self) -> Iterator[Progress]:
        """Start the child and relay its steps until the result, a cancel or its death."""
        ctx = mp.get_context("spawn")
        news, out = ctx.Pipe(duplex=False)
        extra = registry.registration(self.match.game_id)
        child = ctx.Process(target=_serve, daemon=True, name="review", args=(
            self.match.to_record(), self.settings, self.first, extra, os.getpid(), out))
        child.start()
        out.close()
        try:
            while not self.cancelled.is_set():
                if not news.poll(POLL_S):
                    if not child.is_alive() and not news.poll(0):
                        return
                    continue
                try:
                    message = news.recv()
                except EOFError:
                    return
                if message[0] == "result":
                    self.result = message[1]
                    return
                _, self.done, self.total, self.entries = message
                yield self.progress
        finally:
            news.close()
            if child.is_alive():
                child.terminate()
            child.join(2)
