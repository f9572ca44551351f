"""The list of games: each game's rules, imported here, and where its board, bot and LAN secrets
live. Those three belong to the layers above the core and are found there by convention
(client/boards/<id>.py, ai/<id>.py, net/secrets/<id>.py), imported when first needed: a bot
brings numba and a board pygame. tests/test_registry.py imports all of them for every game, so a
misnamed module fails there rather than when someone opens the game."""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from types import ModuleType
from typing import cast

from game.rules import Rules, ataxx, banqi, dots, foxhunt, g2048, jungle, planes

# The arcade's own games, in the order the title menu shows them: one line per game.
GAMES: tuple[Rules, ...] = (
    ataxx,
    dots,
    planes,
    banqi,
    jungle,
    g2048,
    foxhunt,
)
GAME_IDS = tuple(rules.ID for rules in GAMES)


@dataclass(frozen=True)
class GameInfo:
    """A game: its rules, and the modules of the layers above (a path given at registration,
    or the convention)."""

    id: str
    rules: Rules
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


_OWN = {rules.ID: GameInfo(rules.ID, rules) for rules in GAMES}
# Games registered at run time, with the arguments they were registered with.
_extra: dict[str, tuple[GameInfo, tuple[str, str, str, str, str]]] = {}


def register(game_id: str, rules_path: str, board_path: str, ai_path: str,
             lan_path: str = "") -> None:
    """Add a game that is not one of the arcade's own (tests use this for a tiny game)."""
    rules = cast(Rules, importlib.import_module(rules_path))
    _extra[game_id] = (GameInfo(game_id, rules, board_path, ai_path, lan_path),
                       (game_id, rules_path, board_path, ai_path, lan_path))


def unregister(game_id: str) -> None:
    _extra.pop(game_id, None)


def registration(game_id: str) -> tuple[str, str, str, str, str] | None:
    """The register() arguments of a game added at run time (another process registers it with
    them); None for the arcade's own games."""
    extra = _extra.get(game_id)
    return None if extra is None else extra[1]


def get(game_id: str) -> GameInfo:
    """The game with this id; KeyError if there is none."""
    if not isinstance(game_id, str):
        raise KeyError(f"bad game id {game_id!r}")
    if game_id in _extra:
        return _extra[game_id][0]
    if game_id not in _OWN:
        raise KeyError(f"unknown game {game_id!r}; games: {', '.join(available())}")
    return _OWN[game_id]


def available() -> list[str]:
    """Ids of the arcade's games in menu order, then the games registered at run time."""
    return list(GAME_IDS) + [g for g in _extra if g not in _OWN]


def rules(game_id: str) -> Rules:
    return get(game_id).rules
