"""The registry imports the rules it lists; the board, bot and LAN modules each layer finds by
convention are imported here for every game, so a misnamed one fails this test."""

import importlib
from pathlib import Path

import pytest

from game import registry
from game.rules import Rules
from net.secrets import Secrets

ROOT = Path(__file__).resolve().parents[1]


def test_the_list_is_the_rules_modules_in_menu_order():
    assert registry.GAME_IDS == ("ataxx", "dots", "planes", "banqi", "jungle", "g2048",
                                 "foxhunt")
    for rules, game_id in zip(registry.GAMES, registry.GAME_IDS, strict=True):
        assert rules.__name__ == f"game.rules.{game_id}" and rules.ID == game_id
        assert isinstance(rules, Rules)
        assert registry.get(game_id).rules is rules is registry.rules(game_id)
    assert registry.available()[:len(registry.GAME_IDS)] == list(registry.GAME_IDS)


@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_every_listed_game_has_its_board_bot_and_lan_modules(game_id):
    info = registry.get(game_id)
    board, bot = info.board_module(), info.ai_module()
    assert board.__name__ == f"client.boards.{game_id}" and isinstance(board.Board, type)
    assert bot.__name__ == f"ai.{game_id}" and callable(bot.choose)
    if info.players == 2:
        lan = info.lan_module()
        assert issubclass(lan.SECRETS, Secrets)
        if info.rules.HIDDEN:  # what a seat may not see must not cross the link openly
            assert lan.__name__ == f"net.secrets.{game_id}"


def test_every_secrets_module_is_named_for_a_listed_game():
    names = {p.stem for p in (ROOT / "net" / "secrets").glob("*.py")} - {"__init__", "open"}
    assert names and names <= set(registry.GAME_IDS)
    for name in names:
        assert importlib.import_module(f"net.secrets.{name}").SECRETS is not None


def test_a_game_registered_at_run_time_keeps_its_paths(race):
    info = registry.get(race)
    assert info.rules.__name__ == "tests.fakes.race" and race in registry.available()
    assert registry.registration(race) == (race, "tests.fakes.race", "tests.fakes.race",
                                           "tests.fakes.race", "")
    assert info.ai_module().__name__ == "tests.fakes.race"
    assert info.lan_module().__name__ == "net.secrets.open"  # hides nothing of its own
    assert registry.registration("ataxx") is None


def test_an_unknown_game_is_a_key_error_naming_the_games():
    with pytest.raises(KeyError, match="unknown game 'chess'; games: ataxx, dots"):
        registry.get("chess")
    with pytest.raises(KeyError):
        registry.get(None)
