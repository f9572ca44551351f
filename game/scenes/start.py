"""Starting a local match: its seats' controllers, then the play scene (opened by name)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ai.base import DEFAULT_SECONDS, LEVELS
from game import saves, settings
from game.i18n import _
from game.match import Match
from players.base import Controller
from players.driver import controller_for

if TYPE_CHECKING:
    from game.app import App


def level_seconds(level: str) -> float:
    """A bot's time a move: the settings' budget for Hard, in proportion for the others."""
    if level not in LEVELS:
        return 0.0
    return float(settings.get("ai_seconds")) * DEFAULT_SECONDS[level] / DEFAULT_SECONDS["hard"]


def controllers_for(app: App, match: Match) -> list[Controller] | None:
    """A controller for each seat, or None (and a toast saying why) if one cannot be made."""
    controllers: list[Controller] = []
    for s in match.seats:
        try:
            controllers.append(controller_for(s, level_seconds(s.level)))
        except (ValueError, OSError, ImportError) as exc:
            for c in controllers:
                c.close()
            app.toast(_("Cannot start: {error}").format(error=exc))
            return None
    return controllers


def start_match(app: App, match: Match, save_name: str | None = None, *,
                replace: bool = False, **play: Any) -> None:
    """Start (or resume) a local match on a new play scene, pushed or in place of the top; it
    is kept in save_name as it goes, by default this game's own autosave."""
    controllers = controllers_for(app, match)
    if controllers is None:
        return
    open_scene = app.replace if replace else app.push
    open_scene("play", match=match, controllers=controllers,
               save_name=save_name or saves.autosave_name(match), **play)
