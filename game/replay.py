"""Replays: every finished game, saved as msgpack with enough to rebuild each position."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from game import storage
from game.i18n import Text
from game.match import Match
from game.rules import RulesError, Termination
from game.text import LINE_MAX, NAME_MAX, clean_number, clean_text

FORMAT = 1
KIND = "replay"
SUFFIX = ".pareplay"
# An optional key of the body: the game's review (ai/review.py, docs/review.md). A replay
# without it is as good as ever; an arcade that knows no reviews reads past it.
REVIEW = "review"
# The dates a file may claim, in Unix seconds: from the day after the epoch (local times just
# before it fail on Windows) to the year 3000 (the largest Windows converts). A date outside
# them, or not a number, is shown as the nearest; it only orders the list.
FIRST_DATE, LAST_DATE = 86_400.0, 32_503_680_000.0


def file_date(value: object) -> float:
    """A date read from a file, held where every platform can format it."""
    return clean_number(value, FIRST_DATE, FIRST_DATE, LAST_DATE)


def replays_dir() -> Path:
    return storage.data_subdir("replays")


def replay_body(match: Match, duration: float | None = None) -> dict:
    """The replay document: the match record itself, with the result (for lists and a check on
    loading), the date and the duration."""
    out = match.outcome()
    return {
        **match.to_record(),
        "result": {
            "winner": out.winner if out else None,
            "score": list(out.score) if out else [],
            "termination": out.termination.value if out else None,
            "reason": out.reason if out else "unfinished",
            "line": match.result_line(),
        },
        "date": time.time(),
        "duration": round(duration if duration is not None else time.time() - match.started, 3),
    }


def save_replay(match: Match, duration: float | None = None, folder: Path | None = None) -> Path:
    """Write the replay of a (usually finished) match; returns its path."""
    body = replay_body(match, duration)
    folder = folder or replays_dir()
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(body["date"]))
    path = Path(folder) / f"{stamp}-{match.game_id}-{match.seed % 100000:05d}{SUFFIX}"
    return storage.write_new_file(path, KIND, FORMAT, body)


def load_replay(path: Path | str) -> tuple[Match, dict]:
    """The rebuilt match and the replay's body; storage.FileError if it cannot be used."""
    body = storage.read_file(path, KIND, FORMAT)
    try:
        match = Match.from_record(body)
    except (RulesError, KeyError) as exc:
        raise storage.FileError(f"replay cannot be rebuilt: {exc}") from exc
    result = body.get("result")
    if isinstance(result, dict) and isinstance(result.get("line"), str):
        if result["line"] != match.result_line():
            raise storage.FileError("replay's moves do not lead to its recorded result")
    return match, body


def stored_review(body: dict) -> dict | None:
    """The review stored in a replay's body, if there is one (ai/review.py checks it)."""
    review = body.get(REVIEW)
    return review if isinstance(review, dict) else None


def store_review(path: Path | str, review: dict) -> None:
    """Keep a review in the replay file (replacing any before it), atomically; the rest of the
    file and its format version stay as they were. storage.FileError if the file cannot be
    read."""
    body = storage.read_file(path, KIND, FORMAT)
    body[REVIEW] = review
    storage.write_file(path, KIND, FORMAT, body)


@dataclass
class ReplayEntry:
    path: Path
    game: str
    date: float
    line: str
    seats: list[str]
    moves: int
    # The result as data, for a list to say in the player's language (line is English).
    winner: int | None = None
    score: tuple[int, ...] = ()
    termination: str | None = None


def _result_data(result: dict, seats: int) -> tuple[int | None, tuple[int, ...], str | None]:
    """A replay's winner, score and termination as stored, or nothing of what is not sound."""
    winner = result.get("winner")
    winner = winner if type(winner) is int and 0 <= winner < seats else None
    score = result.get("score")
    score = tuple(score) if isinstance(score, list) and len(score) <= 8 and all(
        type(v) is int for v in score) else ()
    termination = result.get("termination")
    known = {t.value for t in Termination}
    return winner, score, termination if termination in known else None


def list_replays(game: str | None = None) -> tuple[list[ReplayEntry], list[Text]]:
    """Replays newest first (optionally one game's), and what to tell of files that cannot be
    read (each put aside)."""
    entries, problems = [], []
    for path in replays_dir().glob(f"*{SUFFIX}"):
        try:
            body = storage.read_file(path, KIND, FORMAT)
            seats = body.get("seats", [])
            result = body.get("result", {})
            entry = ReplayEntry(path, clean_text(body["game"], NAME_MAX),
                                file_date(body.get("date")),
                                clean_text(result.get("line", ""), LINE_MAX),
                                [clean_text(s.get("name", "?"), NAME_MAX) for s in seats][:8],
                                len(body.get("moves", [])), *_result_data(result, len(seats)))
        except (storage.FileError, KeyError, TypeError, ValueError, AttributeError):
            problems.append(storage.unreadable(path.stem, storage.set_aside(path)))
            continue
        if game is None or entry.game == game:
            entries.append(entry)
    entries.sort(key=lambda e: e.date, reverse=True)
    return entries, problems
