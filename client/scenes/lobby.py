"""The LAN lobby: the games hosted on this network, joining one (or an address), hosting one.

Everything that waits (listening, connecting, the hello) runs off the loop; the scene polls.
"""

from __future__ import annotations

import queue
import secrets
import socket
import threading
from enum import Enum
from typing import TYPE_CHECKING

import pygame

from client.scenes.base import Scene, error_words
from client.ui import theme
from client.ui.widgets import LABEL_MARGIN, Button, ButtonGroup, ChoiceRow, TextField, panel
from game import registry, settings, storage
from game.i18n import Text, _, options_said
from game.rules import RulesError
from net import discovery, messages, takeup
from net.link import DEFAULT_PORT, address_text, parse_address
from net.session import (
    NO_WELCOME,
    Host,
    JoinFailed,
    Session,
    check_lan_options,
    fixed_lan_options,
    join,
    lan_games,
    lan_save_name,
    start_hosted,
    start_joined,
    unreachable,
)
from players.base import Controller, HumanController

if TYPE_CHECKING:
    from client.app import App


def hosted_options(game: str) -> dict:
    """The options last chosen for this game in setup, as far as the LAN allows them."""
    last = dict(settings.get("last_setup").get(game, {}).get("options", {}))
    last.update({k: v for k, v in fixed_lan_options(game).items() if k in last})
    try:
        return check_lan_options(game, last)
    except RulesError:  # a remembered option that is no longer offered
        return check_lan_options(game, {})


def _title(game: str) -> str:
    return _(registry.get(game).title) if game in registry.GAME_IDS else game


LEGIBLE = 14  # px: a found game's button drops its address before its text gets smaller


def _game_said(game: str, options: dict) -> str:
    """A hosted game as the lobby names it: its title, and the options it is played with
    where they are not the usual ones (whether Banqi has fog matters before one joins)."""
    try:
        said = options_said(registry.get(game).rules.OPTIONS, options)
    except KeyError:  # a game this arcade lacks: its title says so
        said = ""
    # TRANSLATORS: a hosted game in the LAN lobby and its options ("暗棋 (Fog of war: On)")
    return _("{game} ({options})").format(game=_title(game), options=said) if said \
        else _title(game)


def lan_name() -> str:
    """The name the other player sees: the one set in Settings, or, while it is still the
    default, the default with this computer's name, so two new players are not both "Player"."""
    name = str(settings.get("player_name") or "").strip()
    if name and name != settings.DEFAULTS["player_name"]:
        return name[:40]
    host = socket.gethostname().split(".")[0][:24]
    return (_("Player ({computer})").format(computer=host) if host else _("Player"))[:40]


class Area(Enum):
    """Where the keyboard is in the lobby: one place at a time, Tab to the next."""

    HOSTS = "hosts"
    ADDRESS = "address"
    GAME = "game"
    ACTIONS = "actions"


def _shown(host: discovery.HostInfo) -> tuple:
    """What a host's button shows and joins."""
    return host.address, host.name, host.game, host.options


class LobbyScene(Scene):
    def __init__(self, app: App, listen_port: int = discovery.PORT, take_up: str | None = None):
        super().__init__(app)
        self.take_up = take_up  # a LAN save to go on with: its side waits for the other
        self.hosts = discovery.HostList(listen_port).start()
        self.id = secrets.token_hex(8)  # in this lobby's beacons: it lists others' games only
        self.name = lan_name()
        games = lan_games()
        last = settings.get("lan_game")
        self.game_row = ChoiceRow(_("Host"), [(g, _(registry.get(g).title)) for g in games],
                                  last if last in games else games[0],
                                  lambda game: settings.put("lan_game", game))
        self.address = TextField(_("Address"), "")
        self.host: Host | None = None
        self.beacon: discovery.Beacon | None = None
        self.joining: queue.Queue = queue.Queue()
        self.status = ""
        self.host_buttons = ButtonGroup()
        self.found: list[discovery.HostInfo] = []  # the games the host buttons join
        self._said: tuple[str, str] = ("", "")  # (game, the options it would be hosted with)
        self.buttons = ButtonGroup()
        self.area = Area.GAME
        self.columns = (pygame.Rect(0, 0, 0, 0), pygame.Rect(0, 0, 0, 0))  # placed by layout
        self._rebuild()

    # --- the lists
    def _heard(self) -> list[discovery.HostInfo]:
        """The games heard on the network, this lobby's own (hosted now or lately) left out."""
        return [h for h in self.hosts.hosts() if h.lobby != self.id]

    def _rebuild(self) -> None:
        self.found = self._heard()[:6]
        self.host_buttons.set([Button(self._host_label(h, True),
                                      lambda h=h: self.join(parse_address(h.address, DEFAULT_PORT),
                                                            h.game, h.options))
                               for h in self.found])
        actions = [Button(_("Connect to address"), self.join_address)]
        if self.host is None:
            actions.append(Button(_("Host this game"), self.start_hosting, hotkey=pygame.K_h))
        else:
            actions.append(Button(_("Stop hosting"), self.stop_hosting))
        actions.append(Button(_("Back (Esc)"), self.back))
        self.buttons.set(actions)
        self.relayout()

    # --- joining
    def join_address(self) -> None:
        try:
            where = parse_address(self.address.value, DEFAULT_PORT)
        except ValueError:
            typed = self.address.value.strip()
            self.app.toast(_("“{typed}” is not an address: type host or host:port").format(
                typed=typed) if typed else _("Type the host's address first"))
            self.app.sound.play("refused")
            return
        self.join(where, None, None)

    def join(self, where: tuple[str, int], game: str | None, options: dict | None) -> None:
        """Knock at a host, off the loop; its answer is taken up by update()."""
        self.status = _("Connecting to {address}… the host decides").format(
            address=address_text(where))

        def work() -> None:
            try:
                self.joining.put(("ok", where, join(where, game, options, self.name)))
            except JoinFailed as exc:
                self.joining.put(("error", where, exc.text))
            except OSError as exc:
                self.joining.put(("error", where, unreachable(exc)))
            except ValueError:  # a frame that is no message
                self.joining.put(("error", where, Text(NO_WELCOME)))

        threading.Thread(target=work, daemon=True, name="lan-join").start()

    # --- hosting
    def start_hosting(self) -> None:
        game = self.game_row.value
        try:
            options = hosted_options(game)
            self.host = Host(game, options, DEFAULT_PORT)
        except OSError:
            try:
                self.host = Host(game, options, 0)  # the usual port is taken: any will do
            except OSError as exc:
                self.app.toast(_("Cannot host: {error}").format(error=error_words(exc)))
                return
        except RulesError as exc:
            self.app.toast(_("Cannot host: {error}").format(error=error_words(exc)))
            return
        from game import APP_VERSION
        self.beacon = discovery.Beacon({"name": self.name, "game": game, "options": options,
                                        "port": self.host.port, "version": APP_VERSION,
                                        "id": self.id},
                                       self.hosts.port).start()
        self.status = _("Hosting {game} on port {port}: waiting for a player…").format(
            game=_(registry.get(game).title), port=self.host.port)
        self._rebuild()

    def stop_hosting(self) -> None:
        if self.beacon is not None:
            self.beacon.stop()
        if self.host is not None:
            self.host.stop()
        self.host = self.beacon = None
        self.status = ""
        self._rebuild()

    def _arrival(self, link, hello: dict) -> None:
        host = self.host

        def accept() -> None:
            if self.host is not host or not link.open:
                self.app.toast(_("That player has gone"))
                return
            session = start_hosted(link, host.game, host.options, self.name,
                                   hello["name"] or "Guest")
            session.server = host
            if self.beacon is not None:
                self.beacon.stop()
            self.host = self.beacon = None  # the session owns the server now
            self.status = ""
            self._rebuild()
            self._play(session)

        def decline() -> None:
            link.send(messages.refused_frame(Text(messages.DECLINED, {"name": self.name})))
            link.close("declined")

        self.app.push("confirm",
                      message=_("{player} wants to play").format(
                          player=hello["name"] or _("A player")),
                      on_yes=accept, yes=_("Accept"), no=_("Decline"),
                      detail=_("from {address}").format(address=link.peer),
                      on_no=decline)

    def _play(self, session: Session) -> None:
        controllers: list[Controller] = [Controller(), Controller()]
        controllers[session.seat] = HumanController()
        self.app.push("play", match=session.match, controllers=controllers, session=session,
                      save_name=lan_save_name(session.match))

    def _take_up(self, name: str) -> None:
        """Go on with a LAN game from its save: the host listens again for the same guest,
        the guest knocks at the host's address."""
        try:
            session = takeup.take_up(name)
        except (ValueError, storage.FileError):  # the English reason is of no use to a player
            self.app.toast(_("This LAN game cannot be taken up: its save is damaged"))
            return
        except OSError as exc:  # the port is taken, or the network is down
            self.app.toast(_("Could not continue: {error}").format(error=error_words(exc)))
            return
        self._play(session)

    # --- the scene
    def update(self, dt: float) -> None:
        if self.take_up is not None and self.app.top is self:
            name, self.take_up = self.take_up, None
            self._take_up(name)
            return
        if [_shown(h) for h in self._heard()[:6]] != [_shown(h) for h in self.found]:
            self._rebuild()
        if self.host is not None and self.app.top is self:
            arrival = self.host.next_arrival()
            if arrival is not None:
                self._arrival(*arrival)
        try:
            kind, where, result = self.joining.get_nowait()
        except queue.Empty:
            return
        self.status = ""
        if kind == "error":
            self.app.toast(_("Could not join {address}: {error}").format(
                address=address_text(where), error=result.say()))
            self.app.sound.play("refused")
            return
        try:
            session = start_joined(*result, host_name="the host")
        except (RulesError, ConnectionError, KeyError, TypeError, ValueError) as exc:
            result[0].close(f"bad welcome: {exc}")
            self.app.toast(_("Could not join: the host's welcome makes no sense"))
            return
        session.address = where
        self._play(session)

    def areas(self) -> list[Area]:
        """The places Tab visits, in order (the found games only when there are some)."""
        return [a for a in Area if a is not Area.HOSTS or self.host_buttons.buttons]

    def _area_at(self, pos: tuple[int, int]) -> Area | None:
        if self.address.rect.collidepoint(pos):
            return Area.ADDRESS
        if self.game_row.rect.collidepoint(pos):
            return Area.GAME
        for area, group in ((Area.HOSTS, self.host_buttons), (Area.ACTIONS, self.buttons)):
            if any(b.rect.collidepoint(pos) for b in group.buttons):
                return area
        return None

    def _tab(self, step: int) -> None:
        areas = self.areas()
        here = areas.index(self.area) if self.area in areas else 0
        self.area = areas[(here + step) % len(areas)]

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.area = self._area_at(event.pos) or self.area
        if event.type == pygame.KEYDOWN and self._key(event):
            return
        if event.type == pygame.TEXTINPUT:  # typed text goes to the address while it is typed
            self.address.handle_event(event, self.area is Area.ADDRESS)
            return
        if event.type != pygame.KEYDOWN and (
                self.game_row.handle_event(event, False) or self.host_buttons.handle_event(event)
                or self.buttons.handle_event(event)):
            return
        super().handle_event(event)

    def _key(self, event: pygame.event.Event) -> bool:
        """A key goes to the place that has the keyboard; hotkeys work but while typing."""
        if event.key == pygame.K_ESCAPE:
            return False
        if event.key == pygame.K_TAB:
            self._tab(-1 if event.mod & pygame.KMOD_SHIFT else 1)
            return True
        if self.area not in self.areas():
            self.area = Area.GAME  # the found games went while the keyboard was on them
        if self.area is Area.ADDRESS:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.join_address()
                return True
            return self.address.handle_event(event, True)
        if self.buttons.press_hotkey(event):
            return True
        if self.area is Area.GAME:
            if event.key == pygame.K_DOWN:
                self.area = Area.ACTIONS
                return True
            return self.game_row.handle_event(event, True)
        group = self.host_buttons if self.area is Area.HOSTS else self.buttons
        return group.handle_event(event)

    def close(self) -> None:
        """Off the stack for good (back, into a game and then to the menu, quit): stop
        hosting and stop listening for hosts."""
        self.stop_hosting()
        self.hosts.stop()

    @staticmethod
    def _host_label(h: discovery.HostInfo, address: bool) -> str:
        """A found game's button: who hosts what, with which options, and where."""
        # TRANSLATORS: a game found on the LAN: who hosts it, and the game
        said = _("{host}: {game}").format(host=h.name, game=_game_said(h.game, h.options))
        return f"{said}  ({h.address})" if address else said

    def _options_said(self, game: str) -> str:
        """The options this lobby would host the game with, said once a game chosen (drawn
        every frame: the settings are read only when the choice changes)."""
        if self._said[0] != game:
            try:
                said = options_said(registry.get(game).rules.OPTIONS, hosted_options(game))
            except RulesError:
                said = ""
            self._said = (game, said)
        return self._said[1]

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        s = self.s
        left = pygame.Rect(30, s(110), w // 2 - 45, h - s(110) - 40)
        right = pygame.Rect(w // 2 + 15, left.y, w // 2 - 45, left.height)
        self.columns = (left, right)
        self.host_buttons.layout_column(left.x + 18, left.y + s(54), left.width - 36, s(40),
                                        gap=s(8))
        room = left.width - 36 - LABEL_MARGIN  # the address only where all is still legible
        full = all(theme.font(LEGIBLE).size(self._host_label(h, True))[0] <= room
                   for h in self.found)
        for button, h in zip(self.host_buttons.buttons, self.found):
            button.label = self._host_label(h, full)
        self.address.layout(pygame.Rect(left.x + 18, left.bottom - s(70), left.width - 36, s(42)),
                            s(90))
        self.game_row.layout(pygame.Rect(right.x + 18, right.y + s(54), right.width - 36, s(42)),
                             s(70))
        self.buttons.layout_column(right.x + 18, right.bottom - 3 * s(50) - 8, right.width - 36,
                                   s(42), gap=s(8))

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        s = self.s
        theme.text(surface, _("Play over the LAN"), (w // 2, s(44)), s(36), bold=True,
                   anchor="center")
        theme.text(surface, _("You are {name} (change it in Settings)").format(name=self.name),
                   (w // 2, s(82)), s(18),
                   theme.INK_SOFT, anchor="center")
        left, right = self.columns
        panel(surface, left)
        panel(surface, right)
        theme.text(surface, _("Games on this network"), (left.x + 18, left.y + s(16)), s(22),
                   bold=True)
        if self.hosts.error:
            for i, line in enumerate(theme.wrap(self.hosts.error.say(), left.width - 36,
                                                s(17))[:3]):
                theme.text(surface, line, (left.x + 18, left.y + s(54) + s(22) * i), s(17),
                           theme.ACCENT)
        elif not self.host_buttons.buttons and (limit := discovery.limits()) is not None:
            for i, line in enumerate(theme.wrap(limit.say(), left.width - 36, s(17))[:4]):
                theme.text(surface, line, (left.x + 18, left.y + s(54) + s(22) * i), s(17),
                           theme.INK_SOFT)
        elif not self.host_buttons.buttons:
            theme.text(surface, _("Looking for hosts… none yet."),
                       (left.x + 18, left.y + s(56)), s(18), theme.INK_SOFT)
        self.host_buttons.draw(surface, self.area is Area.HOSTS)
        theme.text(surface, _("Or type an address (host or host:port):"),
                   (left.x + 18, left.bottom - s(96)), s(17), theme.INK_SOFT)
        self.address.draw(surface, self.area is Area.ADDRESS)
        theme.text(surface, _("Host a game"), (right.x + 18, right.y + s(16)), s(22), bold=True)
        self.game_row.draw(surface, self.area is Area.GAME)
        notes = theme.wrap(_("Options: as you last set them up for this game."), right.width - 36,
                           s(16))[:2]
        said = self._options_said(self.game_row.value)
        notes += theme.wrap(said, right.width - 36, s(16))[:2] if said else []
        for i, line in enumerate(notes):
            theme.text(surface, line, (right.x + 18, right.y + s(106) + s(20) * i), s(16),
                       theme.INK_SOFT)
        top = right.y + s(116) + s(20) * len(notes)
        for i, line in enumerate(theme.wrap(self.status, right.width - 36, s(18))[:3]):
            theme.text(surface, line, (right.x + 18, top + s(24) * i), s(18), theme.ACCENT,
                       bold=True)
        self.buttons.draw(surface, self.area is Area.ACTIONS)
