"""Hosting and joining a LAN game: the hello, the host's listening socket, and the guest's
join. Nothing here knows a game in progress (net/session.py holds that); what a game holds to
one value over the LAN comes from its net/secrets module.

A guest's hello is read off the loop with one deadline for the whole of it; its name is made fit
to show (net/peer_text) where it arrives. Those that fit wait in `Host.arrivals` for the owner to
accept, decline or resume; junk is dropped with a reason in `Host.refused`.
"""

from __future__ import annotations

import queue
import select
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from game import APP_VERSION, registry
from game.i18n import N_, Text, system_error
from game.match import Match
from game.rules import RulesError
from net import messages
from net.discovery import PROTOCOL
from net.link import HEARTBEAT, Link, LinkError, connect, encode, read_frame
from net.peer_text import clean_hello
from net.secrets import Secrets

HELLO_TIMEOUT = 5.0  # the whole hello, however slowly it drips in
MAX_GREETING = 16  # connections whose hello is being read at once
MAX_ARRIVALS = 8  # hellos waiting for the host's player


def lan_save_name(match: Match) -> str:
    """The save slot of an unfinished LAN game of this kind (both the client and headless)."""
    return f"lan-{match.game_id}"


def lan_games() -> list[str]:
    """The games two players can play over the LAN."""
    return [g for g in registry.available() if registry.get(g).rules.PLAYERS == 2]


def secrets_for(game: str) -> type[Secrets]:
    """The game's Secrets class (net/secrets/<id>.py, or Open)."""
    return registry.get(game).lan_module().SECRETS


def check_lan_options(game: str, options: dict) -> dict:
    """The normalized options; RulesError if this game or option can't be played over the LAN."""
    try:  # any registered game, the tests' own included, not only the menu's
        rules = registry.get(game).rules
    except KeyError:
        rules = None
    if rules is None or rules.PLAYERS != 2:
        raise RulesError(f"{game!r} is not a two-player game of this arcade")
    options = rules.normalize_options(options)
    for name, (value, why) in secrets_for(game).FIXED_OPTIONS.items():
        if options.get(name, value) != value:
            raise RulesError(why)
    return options


def fixed_lan_options(game: str) -> dict[str, Any]:
    """The options this game's LAN play holds to one value (the others are not offered yet)."""
    return {name: value for name, (value, _) in secrets_for(game).FIXED_OPTIONS.items()}


def hello(game: str | None, options: dict | None, name: str, token: str = "",
          claimed: bool = False) -> dict:
    """A guest's hello (`claimed`: knocking again only to say it claimed the game)."""
    return {"type": "hello", "protocol": PROTOCOL, "version": APP_VERSION, "game": game,
            "options": options, "name": str(name)[:40], "token": token, "claimed": claimed}


def check_hello(message: dict, game: str, options: dict) -> Text | None:
    """None if a guest's hello fits this host's game; else the reason it is refused."""
    if message.get("type") != "hello":
        return Text(messages.NOT_HELLO)
    if message.get("protocol") != PROTOCOL:
        return Text(messages.OTHER_PROTOCOL, {"theirs": str(message.get("protocol"))[:20],
                                              "ours": PROTOCOL})
    if message.get("version") != APP_VERSION:
        return Text(messages.OTHER_VERSION, {"theirs": str(message.get("version"))[:20],
                                             "ours": APP_VERSION})
    # a guest that joins by address alone sends no game: it takes the host's
    if message.get("game") is not None and message.get("game") != game:
        return Text(messages.OTHER_GAME)
    if message.get("game") is not None and message.get("options") != options:
        return Text(messages.OTHER_OPTIONS)
    if not isinstance(message.get("name"), str) or not isinstance(message.get("token"), str):
        return Text(messages.NO_NAME)
    return None


class Host:
    """Listens for guests. Each connection's hello is read off the loop; those that fit wait in
    `arrivals` as (link, hello) for the owner to accept, decline or resume; junk is dropped."""

    def __init__(self, game: str, options: dict, port: int = 0, bind: str = "",
                 now: Callable[[], float] = time.monotonic):
        self.game, self.options = game, check_lan_options(game, options)
        self.now = now  # the clock a hello's deadline is read on (tests move their own)
        self.server = socket.create_server((bind, port), reuse_port=False)
        self.port = self.server.getsockname()[1]
        self.arrivals: queue.Queue[tuple[Link, dict]] = queue.Queue(MAX_ARRIVALS)
        self.refused: list[str] = []  # why recent connections were turned away (for tests)
        self.accept_errors = 0  # accept() failures lived through (out of descriptors, ...)
        self._greeting = threading.BoundedSemaphore(MAX_GREETING)
        self._stop = threading.Event()
        threading.Thread(target=self._accept_loop, daemon=True, name="lan-accept").start()

    def stop(self) -> None:
        """Stop listening, at once: the port is free as this returns."""
        self._stop.set()
        try:  # close() alone leaves the socket listening while accept() blocks on it
            self.server.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        try:
            self.server.close()
        except OSError:
            pass

    def _accept_loop(self) -> None:
        pause = 0.01
        while not self._stop.is_set():
            try:
                sock, _ = self.server.accept()
            except OSError:  # out of descriptors, a connection reset before accept, ...
                if self._stop.is_set():
                    return
                self.accept_errors += 1
                self._stop.wait(pause)  # back off and go on: a rightful resume may come
                pause = min(pause * 2, 1.0)
                continue
            pause = 0.01
            if self._stop.is_set():  # came in as the host stopped
                sock.close()
                return
            if not self._greeting.acquire(blocking=False):
                self._turn_away(sock, Text(messages.TOO_MANY))
                continue
            try:
                threading.Thread(target=self._greet, args=(sock,), daemon=True,
                                 name="lan-hello").start()
            except RuntimeError:  # no thread to be had
                self._greeting.release()
                self._turn_away(sock, Text(messages.TOO_MANY))

    def _turn_away(self, sock: socket.socket, problem: Text) -> None:
        self.refused.append(problem.english())
        del self.refused[:-50]
        try:
            sock.settimeout(1.0)
            sock.sendall(encode(messages.refused_frame(problem)))
        except OSError:
            pass
        sock.close()

    def _greet(self, sock: socket.socket) -> None:
        try:
            try:  # one deadline for the whole hello, however it drips in
                message = read_frame(sock, self.now() + HELLO_TIMEOUT, self.now)
                problem = check_hello(message, self.game, self.options)
            except (LinkError, OSError) as exc:
                self.refused.append(str(exc) or "no hello in time")
                sock.close()
                return
            if problem:
                self._turn_away(sock, problem)
                return
            if self.arrivals.full():
                self._turn_away(sock, Text(messages.QUEUE_FULL))
                return
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.arrivals.put((Link(sock).start(), clean_hello(message)))
        finally:
            self._greeting.release()

    def next_arrival(self) -> tuple[Link, dict] | None:
        try:
            return self.arrivals.get_nowait()
        except queue.Empty:
            return None


NO_ANSWER = N_("no answer from the host")
NO_WELCOME = N_("the host did not answer with a welcome")


class JoinFailed(ConnectionError):
    """Joining a host did not work; `text` says why, in the player's language when said (its
    str() is the English, for logs)."""

    def __init__(self, text: Text):
        super().__init__(text.english())
        self.text = text


def unreachable(exc: OSError) -> Text:
    """Why a host could not be reached, in words a player can act on."""
    if isinstance(exc, ConnectionRefusedError):
        return Text(N_("nobody is hosting a game there"))
    if isinstance(exc, socket.gaierror):
        return Text(N_("no computer on the network has that name"))
    if isinstance(exc, TimeoutError):
        return Text(NO_ANSWER)
    return Text(N_("the network said: {error}"), {"error": system_error(exc)})


def join(address: tuple[str, int], game: str | None, options: dict | None, name: str,
         token: str = "", wait: float = 120.0,
         heartbeat: float = HEARTBEAT, claimed: bool = False) -> tuple[Link, dict]:
    """Guest: connect, say hello and wait for the welcome, all within `wait` seconds (the
    host's keep-alive pings are skipped while its player decides, and this side pings every
    `heartbeat` seconds). Blocking: call it off the loop. JoinFailed with the reason
    (the host's, if it refused) if it does not work."""
    deadline = time.monotonic() + wait
    try:
        sock = connect(*address, timeout=min(5.0, wait))
    except OSError as exc:
        raise JoinFailed(unreachable(exc)) from None
    try:
        sock.sendall(encode(hello(game, options, name, token, claimed)))
        beat = time.monotonic() + heartbeat
        while True:
            now = time.monotonic()
            if now >= deadline:
                raise LinkError(NO_ANSWER)
            if now >= beat:  # still here, however busy the host's own pings keep the socket
                sock.sendall(encode({"type": "ping"}))
                beat = now + heartbeat
            readable, _, _ = select.select([sock], [], [], max(0.0, min(deadline, beat) - now))
            if not readable:
                continue
            message = read_frame(sock, deadline)
            if message.get("type") != "ping":
                break
    except (LinkError, OSError):
        sock.close()
        raise JoinFailed(Text(NO_ANSWER)) from None
    if message.get("type") == "refused":
        sock.close()
        raise JoinFailed(messages.refusal_said(message))
    if message.get("type") != "welcome" or type(message.get("seat")) is not int:
        sock.close()
        raise JoinFailed(Text(NO_WELCOME))
    return Link(sock).start(), message
