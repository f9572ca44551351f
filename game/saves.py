"""Games in progress on disk: the autosave behind "Continue" and the player's named saves."""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from game import storage
from game.i18n import N_, Text, system_error
from game.match import Match
from game.replay import file_date
from game.rules import RulesError

FORMAT = 1
KIND = "save"
AUTOSAVE = "autosave"


def saves_dir() -> Path:
    return storage.data_subdir("saves")


def path_for(name: str) -> Path:
    safe = "".join(ch if ch.isalnum() or ch in "-_ " else "_" for ch in name).strip() or "save"
    return saves_dir() / f"{safe[:60]}.pasave"


def save_body(match: Match, extra: dict | None = None) -> dict:
    """The save: the match record, and in "extra" what the client keeps beside it (clocks)."""
    return {"match": match.to_record(), "saved": time.time(), "title": match.info.title,
            "moves": len(match.moves), "extra": dict(extra or {})}


_WRITE_LOCK = threading.Lock()
_ORDER = itertools.count(1)
_WRITTEN: dict[Path, int] = {}  # per file, the order number of the body on disk
_CHANGES = [0]  # saves written or removed so far; read without the lock (the loop never waits)


def _write(path: Path, body: dict, order: int) -> None:
    """Writes body unless a body taken later is already on disk: a background save whose
    thread ran late must not put an older game back."""
    with _WRITE_LOCK:
        if _WRITTEN.get(path, 0) > order:
            return
        storage.write_file(path, KIND, FORMAT, body)
        _WRITTEN[path] = order
        _CHANGES[0] += 1


def save(match: Match, name: str = AUTOSAVE, extra: dict | None = None) -> Path:
    """Write the match now (atomically); returns the path."""
    path = path_for(name)
    _write(path, save_body(match, extra), next(_ORDER))
    return path


def save_in_background(match: Match, name: str = AUTOSAVE, done: list | None = None,
                       quiet: bool = False, extra: dict | None = None) -> threading.Thread:
    """Save off the loop thread; what happened (a Text, said in the player's language) is
    appended to done. An autosave (the autosave slot, or quiet) reports only errors."""
    body = save_body(match, extra)  # taken now, on the loop thread, so later moves do not race
    order = next(_ORDER)
    saved = Text(N_("Saved: {game}, move {n}"), {"game": Text(match.info.title),
                                                 "n": len(match.moves) + 1})

    def write() -> None:
        msg: Text | None = None
        try:
            _write(path_for(name), body, order)
            if name != AUTOSAVE and not quiet:
                msg = saved
        except OSError as exc:
            msg = Text(N_("Could not save: {error}"), {"error": system_error(exc)})
        if done is not None and msg is not None:
            done.append(msg)

    thread = threading.Thread(target=write, name="save", daemon=True)
    thread.start()
    return thread


def changes() -> int:
    """How many saves were written or removed so far: a screen that lists them lists them
    again when this moves (a background save may land after the screen opened)."""
    return _CHANGES[0]


def load(path: Path | str) -> Match:
    """Rebuild a saved match; storage.FileError with a one-line message if it cannot be, and
    the file is set aside so that it is not offered again."""
    try:
        body = storage.read_file(path, KIND, FORMAT)
        try:
            return Match.from_record(body.get("match"))
        except (RulesError, KeyError) as exc:
            raise storage.FileError(f"saved game cannot be rebuilt: {exc}") from exc
    except storage.FileError as exc:
        moved = storage.set_aside(path) if Path(path).exists() else None
        raise storage.FileError(str(exc), kept=moved) from exc


def read_extra(name: str) -> dict:
    """The "extra" fields of the save of that name; {} if it has none or cannot be read."""
    try:
        extra = storage.read_file(path_for(name), KIND, FORMAT).get("extra")
    except storage.FileError:
        return {}
    return extra if isinstance(extra, dict) else {}


def autosave_name(match: Match) -> str:
    """The autosave of this game in progress: one per game, so one never overwrites another."""
    return f"{AUTOSAVE} {match.game_id} {int(match.started * 1000)}"


def has_autosave() -> bool:
    return any(p.stem.startswith(AUTOSAVE) for p in saves_dir().glob("*.pasave"))


def remove(name: str = AUTOSAVE) -> None:
    """Delete a save; a background save taken before this does not bring it back."""
    path = path_for(name)
    with _WRITE_LOCK:
        _WRITTEN[path] = next(_ORDER)
        try:
            path.unlink()
        except OSError:
            pass
        _CHANGES[0] += 1


@dataclass
class SaveEntry:
    path: Path
    name: str
    modified: float


def unreadable(entry: SaveEntry, kept: Path | None) -> Text:
    """What a player is told of a save that cannot be read: an autosave's name means nothing
    to them, so it is called a game in progress."""
    if not entry.name.startswith(AUTOSAVE):
        return storage.unreadable(entry.name, kept)
    if kept is None:
        return Text(N_("A game in progress cannot be read"))
    return Text(N_("A game in progress cannot be read: it is put aside"))


def list_saves() -> list[SaveEntry]:
    """The named saves (not the autosaves), newest first."""
    entries = [SaveEntry(p, p.stem, file_date(p.stat().st_mtime))
               for p in saves_dir().glob("*.pasave") if not p.stem.startswith(AUTOSAVE)]
    return sorted(entries, key=lambda e: e.modified, reverse=True)


def list_autosaves() -> list[SaveEntry]:
    """The autosaves of the games in progress, newest first."""
    entries = [SaveEntry(p, p.stem, file_date(p.stat().st_mtime))
               for p in saves_dir().glob("*.pasave") if p.stem.startswith(AUTOSAVE)]
    return sorted(entries, key=lambda e: e.modified, reverse=True)
