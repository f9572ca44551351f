"""The review of a finished game: every position judged by Hard (each bot's `appraise`), each
move marked by how much it lowered its player's expected result, the better move and its line.

Each move is judged from its player's view at that moment (`rules.view(state, seat)`), never
from the truth: Banqi's face-down pieces as the public counts, the fog as that seat saw it,
a planes shot from the shooter's shots. In games that hide something the truth follows beside
it: what the move turned out to be worth once its answer was known, and what the best would
have been worth (the answer the truth holds for it).

`Review` runs on a worker thread (the client's, or the command line's own): `run()` yields a
`Progress` after each position, `cancel()` stops it within one position's budget, and
`result` is the finished review (a dict, docs/review.md), which game.replay.store_review keeps
in the replay so a second opening reuses it. Nothing here names a game: what differs per game
is in each bot's `appraise` and in the thresholds file ai/data/review_thresholds.json
(bench/review_calibrate.py).
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ai.base import Appraisal, Budget, Deadline, bot_module
from game.match import Match

VERSION = 4  # of the review document; a stored review of another version is made again
# (2: no truth.best_after for a better move that opens a hidden deal; 3: settled values;
# 4: "given", the share of the points a move gives up in a solved position)
CLASSES = ("ok", "inaccuracy", "mistake", "blunder")
THRESHOLDS = Path(__file__).parent / "data" / "review_thresholds.json"
# Where a game has no calibrated thresholds: lichess's steps of win chance.
DEFAULT_THRESHOLDS = {"inaccuracy": 0.10, "mistake": 0.20, "blunder": 0.30}


@dataclass(frozen=True)
class Settings:
    """How hard each position is searched: seconds of Hard's search, and `limit`, a bound in
    the bot's own unit (plies, shots) that makes a review the same on every machine (0: none)."""

    seconds: float = 0.12
    limit: int = 0

    def to_dict(self) -> dict:
        return asdict(self)


QUICK = Settings(0.12)  # a 60-ply game in about 10 s (bench/review_speed.py)
DEEP = Settings(1.0)


@dataclass(frozen=True)
class Progress:
    """How far a review has got: positions judged of the total."""

    done: int
    total: int

    @property
    def share(self) -> float:
        return self.done / self.total if self.total else 1.0


@cache
def _thresholds_file() -> dict:
    try:
        data = json.loads(THRESHOLDS.read_text(encoding="utf-8"))
        return data.get("games", {}) if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def thresholds(game_id: str) -> dict[str, float]:
    """The drops in the mover's expected result at which a move is an inaccuracy, a mistake
    and a blunder in this game (in the game's unit)."""
    found = _thresholds_file().get(game_id, {})
    out = dict(DEFAULT_THRESHOLDS)
    for name in out:
        value = found.get(name)
        if isinstance(value, (int, float)) and math.isfinite(value) and value > 0:
            out[name] = float(value)
    return out


def classify(drop: float, limits: dict[str, float]) -> str:
    """The class of a move that lowered its player's expected result by `drop`."""
    for name in ("blunder", "mistake", "inaccuracy"):
        if drop >= limits[name]:
            return name
    return "ok"


def _plain(value: Any) -> Any:
    """JSON- and msgpack-safe: floats rounded, a non-finite number as None, tuples as lists."""
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return round(value, 4) if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return _plain(value.item())
    return str(value)


def settles(rules: Any) -> bool:
    """Whether the review settles each move's values on the next position's judgement: where
    nothing is hidden and nothing left to chance, the position after a move is the move's
    whole worth, and both seats see it alike."""
    return not rules.HIDDEN and not rules.CHANCE


class Steps:
    """What any review shows while it runs: its entries so far, how far it has got, its result
    at the end (None if cancelled), and the flag that cancels it."""

    def __init__(self, match: Match, settings: Settings = QUICK,
                 cancel: threading.Event | None = None, first: int = 0):
        self.match = match
        self.first = max(0, first)  # plies before this one are left out ("skipped")
        self.settings = settings
        self.cancelled = cancel if cancel is not None else threading.Event()
        self.entries: list[dict] = []
        self.result: dict | None = None
        # the truth, or the settling, is a second pass
        passes = 2 if match.rules.HIDDEN or settles(match.rules) else 1
        self.total = max(0, len(match.moves) - self.first) * passes
        self.done = 0

    def cancel(self) -> None:
        """Stop at the next check (within one position's search)."""
        self.cancelled.set()

    @property
    def progress(self) -> Progress:
        return Progress(self.done, self.total)


class Review(Steps):
    """One review of a match (a finished game, or any record). Run it off the loop thread."""

    def __init__(self, match: Match, settings: Settings = QUICK,
                 cancel: threading.Event | None = None, first: int = 0,
                 now: Callable[[], float] = time.monotonic):
        super().__init__(match, settings, cancel, first)
        self.rules = match.rules
        self.bot = bot_module(match.game_id)
        self.limits = thresholds(match.game_id)
        self.now = now  # the clock each position's time is read on (tests move their own)

    def appraise(self, state: Any, moves: list, share: float = 1.0) -> tuple[int, Appraisal]:
        """The seat to move in state, and Hard's judgement from that seat's view, with `share`
        of a position's time."""
        seat = self.rules.to_move(state)
        if seat is None:
            raise ValueError("a finished position has no mover to judge")
        view = self.rules.view(state, seat)
        for kernel in self.bot.KERNELS:  # loaded (once) before the position's time starts: a
            kernel.load()  # review's new process spent it loading (Dots' move 1 never exact)
        budget = Budget(self.settings.seconds * share, self.cancelled, self.now)
        return seat, self.bot.appraise(view, moves, budget, self.settings.limit)

    def run(self) -> Iterator[Progress]:
        """Judge every ply, yielding progress after each; `result` is set at the end, or stays
        None if the review was cancelled."""
        states, moves = self.match.states, self.match.moves
        unit, better = "win chance", 1
        for ply, move in enumerate(moves):
            state = states[ply]
            seat = self.rules.to_move(state)
            if ply < self.first:
                self.entries.append({"ply": ply, "seat": seat, "move": move, "kind": "skipped"})
                continue
            if self.rules.SETUP and self.rules.setup_pending(state):
                self.entries.append({"ply": ply, "seat": seat, "move": move, "kind": "setup"})
            else:
                try:
                    mover, a = self.appraise(state, [move])
                except Deadline:
                    return
                unit, better = a.unit, a.better
                self.entries.append(self.entry(ply, mover, move, a))
            self.done += 1
            yield self.progress
        if self.rules.HIDDEN:
            for entry in self.entries[self.first:]:
                if entry["kind"] == "move":
                    try:
                        entry["truth"] = self.truth(entry)
                    except Deadline:
                        return
                self.done += 1
                yield self.progress
        elif settles(self.rules):
            for entry in reversed(self.entries[self.first:]):  # each on the next one settled
                if entry["kind"] == "move":
                    try:
                        entry.update(self.settled(entry, better))
                    except Deadline:
                        return
                self.done += 1
                yield self.progress
        self.result = self.document(unit, better)

    def entry(self, ply: int, seat: int, move: Any, a: Appraisal) -> dict:
        # rounded as the file keeps it, then classed: a drop just under a limit that rounds up
        # to it was kept as the limit with the class below it
        given = round(a.given[0], 4) if a.given else 0.0
        drop = max(round(max(0.0, (a.value - a.scores[0]) * a.better), 4), given)
        return _plain({
            "ply": ply, "seat": seat, "move": move, "kind": "move",
            "before": a.value, "after": a.scores[0], "drop": drop, "given": given,
            "class": classify(drop, self.limits), "best": a.best, "line": list(a.line),
            "exact": a.exact, "details": a.details[0] if a.details else {},
            "figures": a.figures,
        })

    def settled(self, entry: dict, better: int) -> dict:
        """A move's values on what came after it: the move is worth the next position as that
        position was judged (a ply deeper, already settled), and the best the position after
        the best move, judged alike; the position is worth the better of the two. So the values
        a move is judged by agree with the next move's and with the graph, and a fall the search
        of one position missed is charged to the move that made it, not to a later one."""
        ply, mover = entry["ply"], entry["seat"]
        after = self._worth_after(ply, mover)
        if entry["best"] == entry["move"]:
            best = after
        else:
            state = self.match.states[ply]
            best = self.realised(self.rules.apply(state, self.rules.move_from_wire(
                entry["best"])), mover)
        before = max(best, after) if better > 0 else min(best, after)
        drop = max(round(max(0.0, (before - after) * better), 4),  # as kept, then classed
                   entry["given"])
        same = abs(before - entry["before"]) < 1e-4 and abs(after - entry["after"]) < 1e-4
        return _plain({"before": before, "after": after, "drop": drop,
                       "class": classify(drop, self.limits),
                       "exact": bool(entry["exact"]) and same})

    def realised(self, state: Any, mover: int, share: float = 1.0) -> float:
        """What `state` is worth to `mover`, judged by whoever moves in it with its view (the
        answer of the move that led here known), with `share` of a position's time; a finished
        game is worth its result."""
        out = self.rules.outcome(state)
        if out is not None:
            if self.rules.PLAYERS == 1:
                return float(out.score[0])
            return 0.5 if out.winner is None else float(out.winner == mover)
        seat, a = self.appraise(state, [], share)
        return a.value if seat == mover or self.rules.PLAYERS == 1 else 1.0 - a.value

    def truth(self, entry: dict) -> dict:
        """After the game: what the move played, and the best, turned out to be worth to the
        mover once their answers were known (the next position, judged as it really was)."""
        ply, mover = entry["ply"], entry["seat"]
        state = self.match.states[ply]
        after = self._worth_after(ply, mover)
        if entry["best"] == entry["move"]:
            return _plain({"after": after, "best_after": after})
        try:
            best = self.rules.move_from_wire(entry["best"])
            best_state = None if self.rules.opens_deal(state, best) \
                else self.rules.apply(state, best)  # what it would turn up the game never dealt
        except ValueError:
            best_state = None
        best_after = self.realised(best_state, mover, 1 / 3) if best_state is not None \
            else None
        return _plain({"after": after, "best_after": best_after})

    def _worth_after(self, ply: int, mover: int) -> float:
        """What the position after ply's move is worth to its mover: the next ply's judgement
        if it was made, else that position judged now (a finished game: its result)."""
        after = self._next_before(ply, mover)
        return self.realised(self.match.states[ply + 1], mover) if after is None else after

    def _next_before(self, ply: int, mover: int) -> float | None:
        """The next ply's judgement, turned to `mover`'s side, if the next ply was judged."""
        if ply + 1 >= len(self.entries):
            return None
        nxt = self.entries[ply + 1]
        if nxt["kind"] != "move":
            return None
        if nxt["seat"] == mover or self.rules.PLAYERS == 1:
            return nxt["before"]
        return 1.0 - nxt["before"]

    def document(self, unit: str, better: int) -> dict:
        """The finished review (docs/review.md)."""
        plies = self.entries
        counts: dict[str, dict[str, int]] = {}
        lost_at: dict[str, int | None] = {}
        for seat in range(self.rules.PLAYERS):
            mine = [e for e in plies if e["kind"] == "move" and e["seat"] == seat]
            counts[str(seat)] = {c: sum(1 for e in mine if e["class"] == c) for c in CLASSES}
            lost_at[str(seat)] = next((e["ply"] for e in mine if better > 0 and e["before"]
                                       and e["after"] <= e["before"] / 2), None)
        graph: list[float | None] = []
        for e in plies:
            if e["kind"] != "move":
                graph.append(None)
            elif self.rules.PLAYERS == 2 and e["seat"] == 1:
                graph.append(round(1.0 - e["before"], 4))
            else:
                graph.append(e["before"])
        return {
            "version": VERSION, "game": self.match.game_id,
            "settings": self.settings.to_dict(), "first": self.first, "unit": unit,
            "better": better,
            "thresholds": self.limits, "plies": plies, "graph": graph,
            "summary": {"counts": counts, "lost_at": lost_at},
        }


def review(match: Match, settings: Settings = QUICK) -> dict:
    """The whole review at once (the command line, tests)."""
    job = Review(match, settings)
    for _ in job.run():
        pass
    assert job.result is not None
    return job.result


def reusable(stored: dict | None, match: Match, settings: Settings) -> bool:
    """Whether a review stored with a replay answers for this match at these settings (and
    is made as a review makes one: the file may be crafted)."""
    return (isinstance(stored, dict) and stored.get("version") == VERSION
            and stored.get("game") == match.game_id and stored.get("first") == 0
            and stored.get("settings") == settings.to_dict()
            and isinstance(stored.get("plies"), list)
            and len(stored["plies"]) == len(match.moves)
            and all(_well_formed(e, ply, match.rules.PLAYERS)
                    for ply, e in enumerate(stored["plies"]))
            and _summary_well_formed(stored.get("summary")))


def _number(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value)


def _well_formed(entry: Any, ply: int, players: int) -> bool:
    """An entry of this ply with the kinds and numbers the screens read (Review.entry)."""
    if not isinstance(entry, dict) or type(entry.get("ply")) is not int or entry["ply"] != ply:
        return False
    seat, kind = entry.get("seat"), entry.get("kind")
    if kind in ("setup", "skipped"):
        return seat is None or type(seat) is int
    return (kind == "move" and type(seat) is int and 0 <= seat < players
            and any(entry.get("class") == c for c in CLASSES)
            and all(_number(entry.get(k)) for k in ("before", "after", "drop", "given"))
            and isinstance(entry.get("line", []), list) and type(entry.get("exact")) is bool
            and _truth_well_formed(entry.get("truth", {})))


def _truth_well_formed(truth: Any) -> bool:
    """A hidden game's values once the move's answer was known (Review.truth), if any."""
    return isinstance(truth, dict) and all(
        truth.get(k) is None or _number(truth.get(k)) for k in ("after", "best_after"))


def _summary_well_formed(summary: Any) -> bool:
    return isinstance(summary, dict) and isinstance(summary.get("lost_at", {}), dict)
