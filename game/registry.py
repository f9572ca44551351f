"""The list of games, and where each game's rules, board and bot live."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from types import ModuleType

# The order the title menu shows them in.
GAME_IDS = ("ataxx", "dots", "planes", "banqi", "g2048")


@dataclass(frozen=True)
class GameInfo:
    id: str
    rules: ModuleType

    @property
    def title(self) -> str:
        return self.rules.TITLE

    @property
    def players(self) -> int:
        return self.rules.PLAYERS

    def board_module(self) -> ModuleType:
        """The pygame drawing and input module (game/boards/<id>.py)."""
        return importlib.import_module(f"game.boards.{self.id}")

    def ai_module(self) -> ModuleType:
        """The bot module (ai/<id>.py)."""
        return importlib.import_module(f"ai.{self.id}")


@cache
def get(game_id: str) -> GameInfo:
    """The game with this id; KeyError if there is none."""
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
    """Ids of the games whose rules module is present, in menu order."""
    found = []
    for game_id in GAME_IDS:
        try:
            get(game_id)
        except KeyError:
            continue
        found.append(game_id)
    return found


def rules(game_id: str) -> ModuleType:
    return get(game_id).rules
