"""Every scene by name: the one place that imports the scene modules (the app reads it)."""

from __future__ import annotations

from client.scenes.base import Scene
from client.scenes.dialog import ConfirmScene, HandoverScene, PromptScene
from client.scenes.play import PlayScene
from client.scenes.replays import (
    ContinueScene,
    LoadGameScene,
    ReplayBrowserScene,
    ReplayPlayerScene,
)
from client.scenes.result import ResultScene
from client.scenes.review import ReviewScene
from client.scenes.rules_page import RulesScene
from client.scenes.settings_page import SettingsScene
from client.scenes.setup import SetupScene
from client.scenes.stats import StatsScene
from client.scenes.title import TitleScene

SCENES: dict[str, type[Scene]] = {
    "title": TitleScene,
    "setup": SetupScene,
    "play": PlayScene,
    "result": ResultScene,
    "review": ReviewScene,
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

LAN_MISSING = ""  # why this build has no LAN, if it has none (the title says so when asked)
try:
    from client.scenes.lobby import LobbyScene
except ImportError as exc:
    LAN_MISSING = str(exc)
else:
    SCENES["lobby"] = LobbyScene
