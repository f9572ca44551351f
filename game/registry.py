"""The list of games, and where each game's rules, board and bot live."""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from functools import cache
from types import ModuleType

# The order the title menu shows them in.
GAME_IDS = ("ataxx", "dots", "planes", "banqi", "jungle", "g2048", "foxhunt")


@dataclass(frozen=True)
class GameInfo:
    id: str
    rules: ModuleType
    board_path: str = ""
    ai_path: str = ""
    lan_path: str = ""

    @property
    def title(self) -> str:
        return self.rules.TITLE

    @property
    def players(self) -> int:
        return self.rules.PLAYERS

    def board_module(self) -> ModuleType:
        """The pygame drawing and input module (client/boards/<id>.py)."""
        return importlib.import_module(self.board_path or f"client.boards.{self.id}")

    def ai_module(self) -> ModuleType:
        """The bot module (ai/<id>.py)."""
        return importlib.import_module(self.ai_path or f"ai.{self.id}")

    def lan_module(self) -> ModuleType:
        """What the game hides over the LAN (net/secrets/<id>.py; net/secrets/open.py if none)."""
        path = self.lan_path or f"net.secrets.{self.id}"
        if not self.lan_path and importlib.util.find_spec(path) is None:
            path = "net.secrets.open"
        return importlib.import_module(path)


_extra: dict[str, GameInfo] = {}


def register(game_id: str, rules_path: str, board_path: str, ai_path: str,
             lan_path: str = "") -> None:
    """Add a game that is not one of the arcade's own (tests use this for a tiny game)."""
    _extra[game_id] = GameInfo(game_id, importlib.import_module(rules_path), board_path, ai_path,
                               lan_path)


def unregister(game_id: str) -> None:
    _extra.pop(game_id, None)


def get(game_id: str) -> GameInfo:
    """The game with this id; KeyError if there is none."""
    if not isinstance(game_id, str):
        raise KeyError(f"bad game id {game_id!r}")
    if game_id in _extra:
        return _extra[game_id]
    return _own(game_id)


@cache
def _own(game_id: str) -> GameInfo:
    if game_id not in GAME_IDS:
        raise KeyError(f"unknown game {game_id!r}; games: {', '.join(available())}")
    try:
        rules = importlib.import_module(f"game.rules.{game_id}")
    except ModuleNotFoundError as exc:
        if exc.name == f"game.rules.{game_id}":
            raise KeyError(f"game {game_id!r} is not built yet") from exc
        raise
    return GameInfo(game_id, rules)


def available() -> list[str]:
    """Ids of the games whose rules module is present, in menu order, then the games
    registered at run time."""
    found = []
    for game_id in GAME_IDS:
        try:
            get(game_id)
        except KeyError:
            continue
        found.append(game_id)
    return found + [g for g in _extra if g not in found]


def rules(game_id: str) -> ModuleType:
    return get(game_id).rules
