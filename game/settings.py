"""The player's settings, persisted under the config directory; saved off the loop thread."""

from __future__ import annotations

import copy
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from game import storage
from game.i18n import N_, Text
from game.text import NAME_MAX, clean_number, clean_text

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
    "lan_game": "",  # the game the LAN lobby offers to host, as the player left it
}

# The range each number may take, whatever the file says (NaN, 1e308, -inf are written by
# hand or by a damaged disk): a value outside is held to the nearest end.
BOUNDS: dict[str, tuple[float, float]] = {
    "volume": (0.0, 1.0),
    "animation_speed": (0.0, 4.0),
    "ai_seconds": (0.05, 60.0),
}
TEXT_MAX = {"player_name": NAME_MAX}
FIELD_MAX = 64  # any other text setting (a language code, a level, a choice)
NUMBER_MAX = 2.0**53  # a number without bounds of its own (a best score)

_lock = threading.Lock()
_saving: list[threading.Thread] = []  # put's background saves not known to be done
_values: dict[str, Any] | None = None
_defaults: dict[str, Any] | None = None
_problem: Text | None = None  # what to tell of a damaged settings file, shown once


_declared: dict[str, Setting] = {}
_file_body: dict[str, Any] = {}  # the file as read, so a game declared later finds its values


@dataclass(frozen=True)
class Setting:
    """A player preference a game's board reads from its prefs, kept in the settings file.

    With choices it is a row on the settings page; without, a value the board keeps (a best
    score) through its store.
    """

    key: str
    default: Any
    label: str = ""
    choices: tuple[tuple[Any, str], ...] = ()


def path():
    return storage.config_dir() / FILE_NAME


def declare(found: Iterable[Setting]) -> None:
    """Make a game's own settings known (its board does, as it is defined)."""
    global _defaults
    with _lock:
        for s in found:
            _declared[s.key] = s
            _defaults = None
            if _values is not None and s.key not in _values:
                _values[s.key] = _valid(_file_body.get(s.key), copy.deepcopy(s.default), s.key)


def declared() -> list[Setting]:
    """Every game's own settings declared so far, in the order they were."""
    return list(_declared.values())


def defaults() -> dict[str, Any]:
    """Every setting's default: the arcade's own and each declared game's."""
    global _defaults
    if _defaults is None:
        _defaults = copy.deepcopy(DEFAULTS) | {s.key: s.default for s in _declared.values()}
    return _defaults


def _valid(value: Any, default: Any, key: str = "") -> Any:
    """The value read from the file if it has the default's type and is in range (numbers
    bounded, text cleaned, a declared setting's value one of its choices), else the default
    or the nearest value that is."""
    if value is None:
        return default
    if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
        value = clean_number(value, default, -NUMBER_MAX, NUMBER_MAX)
    if type(value) is not type(default):
        return default
    setting = _declared.get(key)
    if setting is not None and setting.choices:
        return value if any(value == c and type(value) is type(c)
                            for c, _ in setting.choices) else default
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        low, high = BOUNDS.get(key, (-NUMBER_MAX, NUMBER_MAX))
        bounded = clean_number(value, default, low, high)
        return type(default)(bounded)
    if isinstance(value, str):
        text = clean_text(value, TEXT_MAX.get(key, FIELD_MAX))
        return text if text or not default else default
    return value


def _load() -> dict[str, Any]:
    global _values, _problem, _file_body
    if _values is None:
        known = defaults()
        body: dict[str, Any] = {}
        p = path()
        if p.exists():
            try:
                read = storage.read_file(p, "settings", FORMAT)
                body = read if isinstance(read, dict) else {}
            except storage.FileError as exc:
                storage.set_aside(p)  # kept for whoever wants to look; never read again
                # TRANSLATORS: said once at start when the settings file was damaged
                _problem = Text(N_("The settings could not be read: they start afresh"),
                                {"error": str(exc)})  # the why, for a developer
        _file_body = body
        _values = {key: _valid(body.get(key), copy.deepcopy(d), key) for key, d in known.items()}
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
    thread = threading.Thread(target=save_now, name="settings-save", daemon=True)
    with _lock:
        _saving[:] = [t for t in _saving if t.is_alive()] + [thread]
    thread.start()


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


def take_problem() -> Text | None:
    """The message about a damaged settings file, once."""
    global _problem
    with _lock:
        _load()
        msg, _problem = _problem, None
        return msg


def reset_for_tests() -> None:
    """Forget the values read; put's background saves land first (a late one would rewrite a
    file the test has changed since)."""
    global _values, _problem, _defaults, _file_body
    with _lock:
        pending, _saving[:] = list(_saving), []
    for thread in pending:
        thread.join()
    with _lock:
        _values, _problem, _defaults, _file_body = None, None, None, {}
