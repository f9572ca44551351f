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
    from client.app import App


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
    is kept in save_name as it goes, by default this game's own autosave. A game saved over
    the LAN goes on here only as the player chooses (continue_here)."""
    if any(s.kind == "remote" for s in match.seats):
        continue_here(app, match, save_name, replace=replace, **play)
        return
    controllers = controllers_for(app, match)
    if controllers is None:
        return
    open_scene = app.replace if replace else app.push
    open_scene("play", match=match, controllers=controllers,
               save_name=save_name or saves.autosave_name(match), **play)


def continue_here(app: App, match: Match, save_name: str | None = None, *,
                  replace: bool = False, **play: Any) -> None:
    """A game saved over the LAN goes on at this computer: the other side's seat becomes a bot
    or someone here, if the file holds all the game needs; if not, the screen says why."""
    remote = [i for i, s in enumerate(match.seats) if s.kind == "remote"]
    peer = match.seats[remote[0]].name
    why = match.info.lan_module().SECRETS.local_continuation(match)  # e.g. deals anew
    if why:
        app.push("confirm", message=_("This game cannot go on at one computer"),
                 detail=_(why), yes=_("OK"), no=_("Back"), on_yes=lambda: None)
        return

    def go(kind: str) -> None:
        for i in remote:
            seat = match.seats[i]
            seat.kind = kind
            if kind == "ai":
                seat.level, seat.name = "normal", _("Bot ({level})").format(level=_("normal"))
        start_match(app, match, save_name, replace=replace, **play)

    def choose() -> None:
        app.push("confirm", message=_("Who plays {name}'s side?").format(name=peer),
                 detail=_("A bot, or someone here at this computer (hot-seat)."),
                 yes=_("A bot"), no=_("Someone here"), on_yes=lambda: go("ai"),
                 on_no=lambda: go("human"))

    app.push("confirm", message=_("Played over the LAN with {name}").format(name=peer),
             detail=_("Continue it here, at this computer?"), yes=_("Continue here"),
             no=_("Not now"), on_yes=choose)
