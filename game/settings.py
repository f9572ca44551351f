"""The player's settings, persisted under the config directory; saved off the loop thread."""

from __future__ import annotations

import copy
import threading
from typing import TYPE_CHECKING, Any

from game import registry, storage

if TYPE_CHECKING:
    from game.boards.base import Setting

FORMAT = 1
FILE_NAME = "settings.msgpack"

# The arcade's own settings; each game declares its own on its board (Board.SETTINGS).
DEFAULTS: dict[str, Any] = {
    "player_name": "Player",
    "language": "",  # "" follows the system's language (game/i18n.py LANGUAGES)
    "sound": True,
    "volume": 0.7,
    "animation_speed": 1.0,
    "ai_level": "normal",
    "ai_seconds": 1.0,
    "fullscreen": False,
    "last_setup": {},  # game id -> the setup the player chose last time
}

_lock = threading.Lock()
_values: dict[str, Any] | None = None
_defaults: dict[str, Any] | None = None
_problem: str | None = None  # a one-line message about a damaged settings file, shown once


def path():
    return storage.config_dir() / FILE_NAME


def game_settings() -> list[Setting]:
    """Every game's own settings, as its board declares them, in menu order."""
    found: list[Setting] = []
    for game_id in registry.available():
        found += registry.get(game_id).board_module().Board.SETTINGS
    return found


def defaults() -> dict[str, Any]:
    """Every setting's default: the arcade's own and each game's."""
    global _defaults
    if _defaults is None:
        _defaults = copy.deepcopy(DEFAULTS) | {s.key: s.default for s in game_settings()}
    return _defaults


def _load() -> dict[str, Any]:
    global _values, _problem
    if _values is None:
        known = defaults()
        values = copy.deepcopy(known)
        p = path()
        if p.exists():
            try:
                body = storage.read_file(p, "settings", FORMAT)
            except storage.FileError as exc:
                moved = storage.set_aside(p)
                _problem = f"Settings reset: {exc}" + (f" (kept as {moved.name})" if moved else "")
            else:
                for key, value in body.items():
                    if key in known and type(value) is type(known[key]):
                        values[key] = value
                    elif key in known and isinstance(known[key], float) \
                            and isinstance(value, int):
                        values[key] = float(value)
        _values = values
    return _values


def get(key: str, default: Any = None) -> Any:
    with _lock:
        values = _load()
        fallback = default if default is not None else defaults().get(key)
        return copy.deepcopy(values.get(key, fallback))


def all_values() -> dict[str, Any]:
    with _lock:
        return copy.deepcopy(_load())


def put(key: str, value: Any) -> None:
    """Set a value and save the settings in the background."""
    with _lock:
        _load()[key] = copy.deepcopy(value)
    threading.Thread(target=save_now, name="settings-save", daemon=True).start()


_save_lock = threading.Lock()


def save_now() -> None:
    """Write the current values (at exit, in tests, and behind every put)."""
    with _save_lock:  # writes never interleave, and each writes the newest values
        with _lock:
            snapshot = copy.deepcopy(_load())
        try:
            storage.write_file(path(), "settings", FORMAT, snapshot)
        except OSError:
            pass  # a read-only disk must not stop the game; the values stay in memory


def take_problem() -> str | None:
    """The message about a damaged settings file, once."""
    global _problem
    with _lock:
        _load()
        msg, _problem = _problem, None
        return msg


def reset_for_tests() -> None:
    global _values, _problem, _defaults
    with _lock:
        _values, _problem, _defaults = None, None, None
