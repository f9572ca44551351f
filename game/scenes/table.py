"""Every scene by name: the one place that imports the scene modules (the app reads it)."""

from __future__ import annotations

from game.scenes.base import Scene
from game.scenes.dialog import ConfirmScene, HandoverScene, PromptScene
from game.scenes.play import PlayScene
from game.scenes.replays import (
    ContinueScene,
    LoadGameScene,
    ReplayBrowserScene,
    ReplayPlayerScene,
)
from game.scenes.result import ResultScene
from game.scenes.rules_page import RulesScene
from game.scenes.settings_page import SettingsScene
from game.scenes.setup import SetupScene
from game.scenes.stats import StatsScene
from game.scenes.title import TitleScene

SCENES: dict[str, type[Scene]] = {
    "title": TitleScene,
    "setup": SetupScene,
    "play": PlayScene,
    "result": ResultScene,
    "replays": ReplayBrowserScene,
    "replay": ReplayPlayerScene,
    "loads": LoadGameScene,
    "continue": ContinueScene,
    "settings": SettingsScene,
    "stats": StatsScene,
    "rules": RulesScene,
    "confirm": ConfirmScene,
    "prompt": PromptScene,
    "handover": HandoverScene,
}

try:
    from game.scenes.lobby import LobbyScene
except ImportError:  # a build without the LAN: the title says so when asked
    pass
else:
    SCENES["lobby"] = LobbyScene
