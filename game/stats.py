"""The player's statistics: per game and opponent, games won, drawn and lost, the longest run of
wins and, for one-player games, the highest and lowest scores. Kept under the config directory
as settings are (atomic writes, a size cap on reading, a damaged file set aside); a finished
game is counted off the loop thread."""

from __future__ import annotations

import copy
import threading
from dataclasses import asdict, dataclass, fields
from typing import Any

from game import storage
from game.i18n import N_, Text

FORMAT = 1
KIND = "stats"
FILE_NAME = "stats.msgpack"
MAX_BYTES = 256 << 10  # far above a real file (a few KB); a crafted one costs no more
MAX_GAMES = 64
MAX_OPPONENTS = 32
MAX_COUNT = 10**9
RESULTS = ("won", "drawn", "lost")
# Opponent keys beside the bot levels (the values of game.match.Level).
SOLO, PROGRAM, LAN = "solo", "program", "lan"


@dataclass
class Record:
    """One game against one kind of opponent."""

    won: int = 0
    drawn: int = 0
    lost: int = 0
    streak: int = 0  # wins in a row now
    best_streak: int = 0  # the longest run of wins
    high: int | None = None  # one-player games: the highest score
    low: int | None = None  # one-player games: the lowest score

    @property
    def played(self) -> int:
        return self.won + self.drawn + self.lost

    def add(self, result: str, score: int | None = None) -> None:
        """Count one finished game: "won", "drawn" or "lost", and its score if it is solo."""
        if result not in RESULTS:
            raise ValueError(f"not a result: {result!r}")
        setattr(self, result, min(MAX_COUNT, getattr(self, result) + 1))
        self.streak = min(MAX_COUNT, self.streak + 1) if result == "won" else 0
        self.best_streak = max(self.best_streak, self.streak)
        if score is not None:
            self.high = score if self.high is None else max(self.high, score)
            self.low = score if self.low is None else min(self.low, score)

    def merged(self, other: Record) -> Record:
        """This record and another together (a game's total over its opponents); a streak
        cannot be summed, so the total keeps the longest."""
        both = [v for v in (self.high, other.high) if v is not None]
        lows = [v for v in (self.low, other.low) if v is not None]
        return Record(self.won + other.won, self.drawn + other.drawn, self.lost + other.lost,
                      max(self.streak, other.streak), max(self.best_streak, other.best_streak),
                      max(both) if both else None, min(lows) if lows else None)

    @classmethod
    def from_dict(cls, d: Any) -> Record | None:
        """A record read from disk; None unless every field is a count in range."""
        if not isinstance(d, dict):
            return None
        values: dict[str, Any] = {}
        for f in fields(cls):
            v = d.get(f.name)
            if f.name in ("high", "low"):
                if v is not None and (type(v) is not int or abs(v) > 2**53):
                    return None
            elif type(v) is not int or not 0 <= v <= MAX_COUNT:
                return None
            values[f.name] = v
        return cls(**values)


Table = dict[str, dict[str, Record]]  # game id -> opponent -> record

_lock = threading.Lock()  # the table in memory
_save_lock = threading.Lock()  # one write at a time, each of the newest table
_table: Table | None = None
_problem: Text | None = None  # what to tell of a damaged file, said once


def path():
    return storage.config_dir() / FILE_NAME


def _key(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 40


def _read() -> Table:
    """The table on disk; a damaged file is set aside (and said once) and the table starts
    empty; records that are not counts are dropped."""
    global _problem
    p = path()
    if not p.exists():
        return {}
    try:
        body = storage.unpack_file(storage.read_bytes(p, MAX_BYTES), KIND, FORMAT)
    except storage.FileError as exc:
        storage.set_aside(p)  # kept for whoever wants to look; never read again
        # TRANSLATORS: said on the statistics screen when its file was damaged
        _problem = Text(N_("The statistics could not be read: they start afresh"),
                        {"error": str(exc)})  # the why, for a developer
        return {}
    table: Table = {}
    games = body.get("games")
    if not isinstance(games, dict):
        return table
    for game_id, per in list(games.items())[:MAX_GAMES]:
        if not _key(game_id) or not isinstance(per, dict):
            continue
        for opponent, raw in list(per.items())[:MAX_OPPONENTS]:
            record = Record.from_dict(raw)
            if _key(opponent) and record is not None:
                table.setdefault(game_id, {})[opponent] = record
    return table


def _loaded() -> Table:
    global _table
    if _table is None:
        _table = _read()
    return _table


def snapshot() -> Table:
    """A copy of the whole table (reads the file the first time)."""
    with _lock:
        return copy.deepcopy(_loaded())


def record(game_id: str, opponent: str, result: str, score: int | None = None) -> None:
    """Count one finished game and write the file (a read-only disk keeps it in memory)."""
    with _lock:
        table = _loaded()
        per = table.setdefault(game_id, {})
        per.setdefault(opponent, Record()).add(result, score)
    _write()


def record_in_background(game_id: str, opponent: str, result: str,
                         score: int | None = None) -> threading.Thread:
    """record() on a thread of its own: the loop never waits for the disk."""
    thread = threading.Thread(target=record, args=(game_id, opponent, result, score),
                              name="stats-save", daemon=True)
    thread.start()
    return thread


def forget() -> None:
    """Start afresh: every count back to nothing."""
    global _table
    with _lock:
        _table = {}
    _write()


def _write() -> None:
    with _save_lock:
        with _lock:
            body = {"games": {g: {o: asdict(r) for o, r in per.items()}
                              for g, per in _loaded().items()}}
        try:
            storage.write_file(path(), KIND, FORMAT, body)
        except OSError:
            pass  # a read-only disk must not stop the game; the counts stay in memory


def take_problem() -> Text | None:
    """What to tell of a statistics file that was set aside, once (None if none was)."""
    global _problem
    with _lock:
        _loaded()
        msg, _problem = _problem, None
        return msg


def reset_for_tests() -> None:
    global _table, _problem
    with _lock:
        _table, _problem = None, None
