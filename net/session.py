"""A LAN game seen from one side: the handshake, the moves, and everything around them.

The host is authoritative: it holds the match, checks every move the guest sends and echoes
each accepted move back in the form the guest may see. The guest plays a move only when the
host's echo arrives, so both keep the same move list (save for what each may not see).

What stays hidden is each game's own business: the session asks the game's module in
net/secrets/ (found through the registry) at every step where something may be kept back, and
names no game. A game whose host deals (HOST_DEALS) commits to its seed in the welcome and gives
the guest a dummy seed; at the end each side reveals its secret with the salt of the SHA-256
commitment it sent, and the other side checks it.

Messages are msgpack maps (net/link.py); their fields are in PROTOCOL.md's LAN section.
"""

from __future__ import annotations

import queue
import random
import secrets
import socket
import threading
import time
from typing import Any

from game import APP_VERSION, registry
from game.match import Match, Seat
from game.rules import RulesError
from net.discovery import PROTOCOL
from net.link import Link, LinkError, connect, read_frame
from net.secrets import Secrets, commitment

HELLO_TIMEOUT = 5.0
CHAT_MAX = 200


def lan_save_name(match: Match) -> str:
    """The save slot of an unfinished LAN game of this kind (both the client and headless)."""
    return f"lan-{match.game_id}"


def lan_games() -> list[str]:
    """The games two players can play over the LAN."""
    return [g for g in registry.available() if registry.get(g).rules.PLAYERS == 2]


def check_lan_options(game: str, options: dict) -> dict:
    """The normalized options; RulesError if this game or option can't be played over the LAN."""
    try:  # any registered game, the tests' own included, not only the menu's
        rules = registry.get(game).rules
    except KeyError:
        rules = None
    if rules is None or rules.PLAYERS != 2:
        raise RulesError(f"{game!r} is not a two-player game of this arcade")
    options = rules.normalize_options(options)
    for name, (value, why) in _secrets_for(game).FIXED_OPTIONS.items():
        if options.get(name, value) != value:
            raise RulesError(why)
    return options


def fixed_lan_options(game: str) -> dict[str, Any]:
    """The options this game's LAN play holds to one value (the others are not offered yet)."""
    return {name: value for name, (value, _) in _secrets_for(game).FIXED_OPTIONS.items()}


def _secrets_for(game: str) -> type[Secrets]:
    return registry.get(game).lan_module().SECRETS


class Session:
    """One side of a LAN game. The loop calls pump() each frame and submit() for local moves."""

    def __init__(self, link: Link, match: Match, seat: int, is_host: bool, *,
                 token: str = "", peer_name: str = "the other player"):
        self.link, self.match, self.seat, self.is_host = link, match, seat, is_host
        self.peer_seat = 1 - seat
        self.token = token
        self.peer_name = peer_name
        self.waiting = False  # a local move is out and its echo (or answer) has not come
        self.connected = True
        self.notes: list[dict] = []  # events for the play scene
        self.salt = secrets.token_bytes(16)
        self.peer_commit: str | None = None
        self.peer_log: list[dict] = []  # host: each ply as the guest was told it
        self.revealed = False
        self.verdict = ""  # the check of the peer's revealed secret
        self.hidden: Secrets = _secrets_for(match.game_id)(self)  # what this game keeps back
        self.closed = False
        self.server: Host | None = None  # host: where a lost guest comes back
        self.address: tuple[str, int] | None = None  # guest: where to knock again
        self._rejoined: queue.Queue = queue.Queue()
        self._knocker: threading.Thread | None = None

    # --- what the play scene calls
    def events(self) -> list[dict]:
        """Handle what arrived; the notes for the screen (messages, refresh, questions)."""
        self.pump()
        notes, self.notes = self.notes, []
        return notes

    def submit(self, move: Any) -> None:
        """The local seat's move. RulesError (and nothing sent) if it is refused here."""
        m = self.match
        if m.over or m.to_move() != self.seat or self.waiting:
            raise RulesError("wait for your turn")
        if not self.connected:
            raise RulesError("the other player is not connected")
        if self.hidden.submit(move):
            return
        if self.is_host:
            self._host_play(move)
        else:
            if m.rules.move_to_wire(m.rules.move_from_wire(move)) not in m.legal_moves():
                raise RulesError(f"{move!r} is not legal here")
            self.send({"type": "move", "ply": len(m.moves), "move": move})
            self.waiting = True

    def resign(self, reason: str = "") -> None:
        """The local player gives up (or its bot failed, with the reason)."""
        if not self.match.over:
            self.match.resign(self.seat, reason)
        self.send({"type": "resign"})
        self._after_move()

    def offer_draw(self) -> None:
        self.send({"type": "draw_offer", "ply": len(self.match.moves)})

    def request_takeback(self) -> None:
        self.send({"type": "takeback", "ply": len(self.match.moves)})

    def offer_rematch(self) -> None:
        self.send({"type": "rematch"})

    def chat(self, text: str) -> None:
        self.send({"type": "chat", "text": str(text)[:CHAT_MAX]})

    def close(self) -> None:
        self.closed = True
        self.send({"type": "bye"})
        self.link.close("left the game")
        if self.server is not None:
            self.server.stop()

    # --- the messages
    def pump(self) -> None:
        while (message := self.link.receive()) is not None:
            self.handle(message)
        if not self.connected and not self.closed and not self.match.over:
            self._try_resume()

    def _try_resume(self) -> None:
        """Host: take back a guest that shows its token. Guest: keep knocking, off the loop."""
        if self.is_host and self.server is not None:
            while (arrival := self.server.next_arrival()) is not None:
                link, hello = arrival
                if hello.get("token") == self.token:
                    self.resume(link)
                    return
                link.send({"type": "refused", "reason": "this host is in a game"})
                link.close("refused")
        elif not self.is_host and self.address is not None:
            try:
                link, welcome = self._rejoined.get_nowait()
            except queue.Empty:
                if self._knocker is None or not self._knocker.is_alive():
                    self._knocker = threading.Thread(target=self._knock, daemon=True,
                                                     name="lan-rejoin")
                    self._knocker.start()
                return
            self.resume(link, welcome)

    def _knock(self) -> None:
        time.sleep(1.0)
        try:
            self._rejoined.put(join(self.address, self.match.game_id, self.match.options,
                                    self.match.seats[self.seat].name, self.token, wait=5.0))
        except (ConnectionError, OSError):
            pass

    def handle(self, message: dict) -> None:
        """One message from the peer; a bad one is answered with an error and changes nothing."""
        kind = message.get("type")
        handler = None
        if isinstance(kind, str):
            handler = getattr(self, f"_on_{kind}", None) or self.hidden.handlers().get(kind)
        if handler is None:
            self.send({"type": "error", "text": f"unknown message {str(kind)[:40]!r}"})
            return
        try:
            handler(message)
        except (RulesError, KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            self.send({"type": "error", "text": f"{kind} refused: {exc}"[:300]})

    def _on__closed(self, message: dict) -> None:
        self.connected = False
        self.waiting = False
        if self.match.over:
            return
        self._note("message", text=f"Connection lost: {message.get('reason', '')}")
        self.notes.append({"type": "peer_lost", "reason": message.get("reason", "")})

    def _on_bye(self, message: dict) -> None:
        self.connected = False
        if not self.match.over:
            self.notes.append({"type": "peer_lost", "reason": f"{self.peer_name} left"})

    def _on_error(self, message: dict) -> None:
        self.waiting = False
        self._note("message", text=f"{self.peer_name}: {str(message.get('text', ''))[:200]}")

    def _on_chat(self, message: dict) -> None:
        self._note("message", text=f"{self.peer_name}: {str(message['text'])[:CHAT_MAX]}")

    def _on_move(self, message: dict) -> None:
        ply, move = message["ply"], message["move"]
        m = self.match
        if type(ply) is not int or ply != len(m.moves):
            raise RulesError(f"move for ply {ply!r}, but this game is at ply {len(m.moves)}")
        if self.is_host:
            self._host_receive(move, message)
        else:
            self._guest_receive(move, message)

    def _host_receive(self, move: Any, message: dict) -> None:
        m = self.match
        if m.over or m.to_move() != self.peer_seat:
            raise RulesError("not your turn")
        if self.hidden.receive_as_host(move, message):
            return
        self._host_play(move)

    def _host_play(self, move: Any) -> None:
        """Play a move on the host's match and tell the guest what it may see of it."""
        m = self.match
        mover, before = m.to_move(), m.state
        self.play_local(move)
        wire, extra = self.hidden.echo(before, mover, m.moves[-1])
        self.send_peer_move(len(m.moves) - 1, wire, **extra)

    def _guest_receive(self, move: Any, message: dict) -> None:
        move = self.hidden.receive_as_guest(move, message)
        self.waiting = False
        self.play_local(move)
        self._after_move()

    def _on_resign(self, message: dict) -> None:
        if not self.match.over:
            self.match.resign(self.peer_seat, f"{self.peer_name} resigned")
            self._note("refresh")
            self._after_move()

    def _on_draw_offer(self, message: dict) -> None:
        if self.match.over or message.get("ply") != len(self.match.moves):
            return
        self._ask(f"{self.peer_name} offers a draw", "draw_reply", "Accept", "Decline")

    def _on_draw_reply(self, message: dict) -> None:
        if message.get("accept") is True and not self.match.over:
            self.match.agree_draw("Draw agreed")
            self._note("refresh")
            self._after_move()
        elif message.get("accept") is False:
            self._note("message", text=f"{self.peer_name} declined the draw")

    def _on_takeback(self, message: dict) -> None:
        if self.match.over or message.get("ply") != len(self.match.moves) or self.waiting:
            return
        self._ask(f"{self.peer_name} asks to take back a move", "takeback_reply",
                  "Allow", "Refuse", ply=len(self.match.moves))

    def _on_takeback_reply(self, message: dict) -> None:
        if message.get("accept") is True and message.get("ply") == len(self.match.moves):
            self._take_back(self.seat)
        elif message.get("accept") is False:
            self._note("message", text=f"{self.peer_name} refused the takeback")

    def _on_rematch(self, message: dict) -> None:
        if self.match.over:
            self._ask(f"{self.peer_name} wants a rematch", "rematch_reply", "Play again", "No")

    def _on_rematch_reply(self, message: dict) -> None:
        if message.get("accept") is True and self.match.over and self.is_host:
            self._start_rematch()
        elif message.get("accept") is False:
            self._note("message", text=f"{self.peer_name} does not want a rematch")

    def _start_rematch(self) -> None:
        self.new_game(random.randrange(2**31))
        self.send({"type": "new_game", "seed": self._seed_for_guest()})

    def _on_new_game(self, message: dict) -> None:
        if not self.is_host and self.match.over:
            seed = message["seed"]
            self.new_game(seed if type(seed) is int else random.randrange(2**31))

    def _on_reveal(self, message: dict) -> None:
        if not self.match.over:
            raise RulesError("a reveal before the end")
        self.verdict = self.check_reveal(message)
        self._note("message", text=self.verdict)

    # --- answering the peer's questions
    def _ask(self, question: str, reply: str, yes: str, no: str, **extra: Any) -> None:
        def answer(accept: bool) -> None:
            self.send({"type": reply, "accept": accept, **extra})
            if accept and reply == "draw_reply":
                self.match.agree_draw("Draw agreed")
                self._after_move()
            if accept and reply == "takeback_reply":
                self._take_back(self.peer_seat)
            if accept and reply == "rematch_reply" and self.is_host:
                self._start_rematch()
        self.notes.append({"type": "ask", "question": question, "yes": yes, "no": no,
                           "on_yes": lambda: answer(True), "on_no": lambda: answer(False)})

    def _take_back(self, seat: int) -> None:
        """Both sides take back to `seat`'s last turn."""
        taken = self.match.undo_for(seat)
        self.peer_log = self.peer_log[:len(self.match.moves)]
        self.hidden.taken_back()
        self.waiting = False
        if taken:
            self._note("message", text="A move was taken back")
        self._note("refresh")

    # --- the ends and the checks
    def _after_move(self) -> None:
        if self.match.over and not self.revealed:
            self.revealed = True
            secret = self.secret()
            if secret is not None:
                self.send({"type": "reveal", **secret})

    def secret(self) -> dict | None:
        """What this side reveals at the end (the fields of its `reveal`), if anything."""
        return self.hidden.secret()

    def secret_expected(self) -> bool:
        """Whether the peer has a secret to reveal at the end."""
        return self.hidden.secret_expected()

    def check_reveal(self, message: dict) -> str:
        """The one-line verdict on the peer's revealed secret."""
        return self.hidden.check_reveal(message["salt"], message)

    # --- the plumbing
    def new_game(self, seed: int) -> None:
        """A rematch: a fresh match with the same seats and options."""
        m = self.match
        if not self.is_host and self.hidden.HOST_DEALS:
            seed = random.randrange(2**31)
        self.match = Match(m.game_id, m.options, seed, m.seats)
        self.hidden = type(self.hidden)(self)
        self.peer_commit, self.peer_log, self.revealed, self.verdict = None, [], False, ""
        self.salt, self.waiting = secrets.token_bytes(16), False
        if self.is_host and self.hidden.HOST_DEALS:
            self.send({"type": "commit", "hash": commitment(self.salt, self.match.seed)})
        self.notes.append({"type": "new_game"})

    def _on_commit(self, message: dict) -> None:
        if not self.is_host and isinstance(message.get("hash"), str):
            self.peer_commit = message["hash"]

    def _seed_for_guest(self) -> int:
        return random.randrange(2**31) if self.hidden.HOST_DEALS else self.match.seed

    def play_local(self, move: Any) -> None:
        """Play a move on this side's match and tell the screen."""
        self.match.play(move)
        self._note("refresh", animate=True)

    def send_peer_move(self, ply: int, move: Any, **extra: Any) -> None:
        """Host: tell the guest ply `ply` as it may see it (kept for a resuming guest)."""
        message = {"type": "move", "ply": ply, "move": move, **extra}
        self.peer_log.append(message)
        self.send(message)
        self._after_move()

    def send(self, message: dict) -> None:
        """Send a message to the peer (nothing while disconnected)."""
        if self.connected:
            self.link.send(message)

    def _note(self, kind: str, **fields: Any) -> None:
        self.notes.append({"type": kind, **fields})

    def welcome(self) -> dict:
        """Host: what a (re)joining guest is told: its seat, the seed it may have, the moves."""
        m = self.match
        message = {"type": "welcome", "protocol": PROTOCOL, "version": APP_VERSION,
                   "game": m.game_id, "options": m.options, "seat": self.peer_seat,
                   "seats": [s.to_dict() for s in m.seats], "seed": self._seed_for_guest(),
                   "token": self.token, "moves": self.peer_log, "own_layout": None}
        if self.hidden.HOST_DEALS:
            message["commit"] = commitment(self.salt, m.seed)
        return message

    def rebuild(self, welcome: dict) -> None:
        """Guest: the match from the host's welcome (its own layout kept, on a resume)."""
        game = welcome["game"]
        options = check_lan_options(game, welcome["options"])
        seats = [Seat.from_dict(s) for s in welcome["seats"]]
        for i, s in enumerate(seats):
            s.kind = "human" if i == self.seat else "remote"
        seed = welcome["seed"] if type(welcome["seed"]) is int else 0
        if game != self.match.game_id:
            self.hidden = _secrets_for(game)(self)
        self.match = Match(game, options, seed, seats)
        if isinstance(welcome.get("commit"), str):
            self.peer_commit = welcome["commit"]
        self.hidden.replaying()
        connected, self.connected = self.connected, False  # nothing is sent while rebuilding
        try:
            for message in welcome["moves"]:
                self._guest_receive(message["move"], message)
        finally:
            self.connected = connected
        self.revealed = False
        self.notes.clear()

    def resume(self, link: Link, welcome: dict | None = None) -> None:
        """The peer is back on a new link; the game goes on from the move list."""
        self.link, self.connected, self.waiting = link, True, False
        self.hidden.resumed()
        if self.is_host:
            self.send(self.welcome())
        elif welcome is not None:
            self.rebuild(welcome)
        self._note("message", text=f"{self.peer_name} is back")
        self._note("refresh")


# --- hosting and joining
def hello(game: str | None, options: dict | None, name: str, token: str = "") -> dict:
    return {"type": "hello", "protocol": PROTOCOL, "version": APP_VERSION, "game": game,
            "options": options, "name": str(name)[:40], "token": token}


def check_hello(message: dict, game: str, options: dict) -> str | None:
    """None if a guest's hello fits this host's game; else the reason it is refused."""
    if message.get("type") != "hello":
        return "the first message must be a hello"
    if message.get("protocol") != PROTOCOL:
        return f"protocol {message.get('protocol')!r} does not match {PROTOCOL!r}"
    if message.get("version") != APP_VERSION:
        return f"Paper Arcade {message.get('version')!r} cannot play {APP_VERSION!r}"
    # a guest that joins by address alone sends no game: it takes the host's
    if message.get("game") is not None and message.get("game") != game:
        return f"this host plays {game}, not {message.get('game')!r}"
    if message.get("game") is not None and message.get("options") != options:
        return "the game options do not match the host's"
    if not isinstance(message.get("name"), str) or not isinstance(message.get("token"), str):
        return "a hello without a name or token"
    return None


class Host:
    """Listens for guests. Each connection's hello is read off the loop; those that fit wait in
    `arrivals` as (link, hello) for the owner to accept, decline or resume; junk is dropped."""

    def __init__(self, game: str, options: dict, port: int = 0, bind: str = ""):
        self.game, self.options = game, check_lan_options(game, options)
        self.server = socket.create_server((bind, port), reuse_port=False)
        self.port = self.server.getsockname()[1]
        self.arrivals: queue.Queue[tuple[Link, dict]] = queue.Queue()
        self.refused: list[str] = []  # why recent connections were turned away (for tests)
        self._stop = threading.Event()
        threading.Thread(target=self._accept_loop, daemon=True, name="lan-accept").start()

    def stop(self) -> None:
        self._stop.set()
        try:
            self.server.close()
        except OSError:
            pass

    def _accept_loop(self) -> None:
        while not self._stop.is_set():
            try:
                sock, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._greet, args=(sock,), daemon=True,
                             name="lan-hello").start()

    def _greet(self, sock: socket.socket) -> None:
        sock.settimeout(HELLO_TIMEOUT)
        try:
            message = read_frame(sock)
            problem = check_hello(message, self.game, self.options)
        except (LinkError, OSError) as exc:
            self.refused.append(str(exc) or "no hello in time")
            sock.close()
            return
        if problem:
            self.refused.append(problem)
            try:
                from net.link import encode
                sock.sendall(encode({"type": "refused", "reason": problem}))
            except OSError:
                pass
            sock.close()
            return
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.arrivals.put((Link(sock).start(), message))

    def next_arrival(self) -> tuple[Link, dict] | None:
        try:
            return self.arrivals.get_nowait()
        except queue.Empty:
            return None


def start_hosted(link: Link, game: str, options: dict, host_name: str, guest_name: str,
                 host_seat: int = 0, seed: int | None = None) -> Session:
    """Host: the guest is accepted; the session begins and the guest is welcomed."""
    names = [host_name, guest_name] if host_seat == 0 else [guest_name, host_name]
    seats = [Seat("human" if i == host_seat else "remote", names[i][:40]) for i in range(2)]
    match = Match(game, options, seed, seats)
    session = Session(link, match, host_seat, True, token=secrets.token_hex(16),
                      peer_name=guest_name)
    session.send(session.welcome())
    return session


def join(address: tuple[str, int], game: str | None, options: dict | None, name: str,
         token: str = "", wait: float = 120.0) -> tuple[Link, dict]:
    """Guest: connect, say hello and wait for the welcome. Blocking: call it off the loop.
    ConnectionError with the host's reason if refused."""
    sock = connect(*address)
    try:
        from net.link import encode
        sock.sendall(encode(hello(game, options, name, token)))
        sock.settimeout(wait)
        message = read_frame(sock)
    except (LinkError, OSError) as exc:
        sock.close()
        raise ConnectionError(f"no answer from the host: {exc}") from None
    if message.get("type") == "refused":
        sock.close()
        raise ConnectionError(f"refused: {str(message.get('reason', ''))[:200]}")
    if message.get("type") != "welcome" or type(message.get("seat")) is not int:
        sock.close()
        raise ConnectionError("the host did not answer with a welcome")
    return Link(sock).start(), message


def start_joined(link: Link, welcome: dict, host_name: str = "the host") -> Session:
    """Guest: the session from the host's welcome."""
    seat = welcome["seat"]
    if seat not in (0, 1):
        raise ConnectionError("the host's welcome gives no seat")
    placeholder = Match(welcome["game"], check_lan_options(welcome["game"], welcome["options"]))
    session = Session(link, placeholder, seat, False, token=str(welcome.get("token", "")),
                      peer_name=host_name)
    session.rebuild(welcome)
    return session
