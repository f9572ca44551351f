"""A LAN game seen from one side: the handshake, the moves, and everything around them.

The host is authoritative: it holds the match, checks every move the guest sends and echoes
each accepted move back in the form the guest may see. The guest plays a move only when the
host's echo arrives, so both keep the same move list (save for what each may not see).

What stays hidden: a plane layout never leaves its owner before the end; the owner answers each
shot, and at the end reveals the layout with the salt of the SHA-256 commitment it sent at its
setup, so the other side can check both. In Banqi the host alone holds the deal; the guest's
match is dealt from a seed of its own, and learns each piece only as it is flipped. The host
commits to its seed in the welcome and reveals it at the end, and the guest checks that every
flip it was told agrees with that seed.

Messages are msgpack maps (net/link.py); their fields are in PROTOCOL.md's LAN section.
"""

from __future__ import annotations

import hashlib
import queue
import random
import secrets
import socket
import threading
import time
from typing import Any

import msgpack

from game import APP_VERSION, registry
from game.match import Match, Seat
from game.rules import RulesError
from net.discovery import PROTOCOL
from net.link import Link, LinkError, connect, read_frame

HELLO_TIMEOUT = 5.0
CHAT_MAX = 200


def commitment(salt: bytes, secret: Any) -> str:
    """SHA-256 of the salt and the secret's msgpack bytes, in hex."""
    return hashlib.sha256(salt + msgpack.packb(secret, use_bin_type=True)).hexdigest()


def lan_games() -> list[str]:
    """The games two players can play over the LAN."""
    return [g for g in registry.available() if registry.get(g).rules.PLAYERS == 2]


def check_lan_options(game: str, options: dict) -> dict:
    """The normalized options; RulesError if this game or option can't be played over the LAN."""
    if game not in lan_games():
        raise RulesError(f"{game!r} is not a two-player game of this arcade")
    options = registry.get(game).rules.normalize_options(options)
    if options.get("fog"):
        raise RulesError("fog of war is not offered over the LAN yet")
    return options


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
        self.own_layout: Any = None  # planes: the layout this side set up
        self.peer_commit: str | None = None
        self.peer_answers: list[list] = []  # planes: [cell, answer] the peer gave on its layout
        self.peer_log: list[dict] = []  # host: each ply as the guest was told it
        self.disclosed: list[tuple[int, str, str]] = []  # guest: (ply, square, piece) flips
        self.revealed = False
        self.verdict = ""  # the check of the peer's revealed secret
        self.pending_shot: int | None = None
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
        ply, game = len(m.moves), m.game_id
        if game == "planes" and m.setup_pending():
            self.own_layout = m.rules.move_to_wire(m.rules.check_setup(
                m.options["size"], m.options["planes"], move))
            commit = commitment(self.salt, self.own_layout)
            if self.is_host:
                self._play_local(self.own_layout)
                self._send_peer_move(ply, "hidden", commit=commit)
            else:
                self._send({"type": "move", "ply": ply, "move": "hidden", "commit": commit})
                self.waiting = True
            return
        if game == "planes" and m.state.layouts[self.peer_seat] == "hidden":
            if type(move) is not int or move not in m.legal_moves():
                raise RulesError(f"{move!r} is not a cell you can shoot")
            if self.is_host:
                self.pending_shot = move
                self._send({"type": "shot", "ply": ply, "cell": move})
            else:
                self._send({"type": "move", "ply": ply, "move": move})
            self.waiting = True
            return
        if self.is_host:
            self._host_play(move)
        else:
            if m.rules.move_to_wire(m.rules.move_from_wire(move)) not in m.legal_moves():
                raise RulesError(f"{move!r} is not legal here")
            self._send({"type": "move", "ply": ply, "move": move})
            self.waiting = True

    def resign(self, reason: str = "") -> None:
        """The local player gives up (or its bot failed, with the reason)."""
        if not self.match.over:
            self.match.resign(self.seat, reason)
        self._send({"type": "resign"})
        self._after_move()

    def offer_draw(self) -> None:
        self._send({"type": "draw_offer", "ply": len(self.match.moves)})

    def request_takeback(self) -> None:
        self._send({"type": "takeback", "ply": len(self.match.moves)})

    def offer_rematch(self) -> None:
        self._send({"type": "rematch"})

    def chat(self, text: str) -> None:
        self._send({"type": "chat", "text": str(text)[:CHAT_MAX]})

    def close(self) -> None:
        self.closed = True
        self._send({"type": "bye"})
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
        handler = getattr(self, f"_on_{kind}", None) if isinstance(kind, str) else None
        if handler is None:
            self._send({"type": "error", "text": f"unknown message {str(kind)[:40]!r}"})
            return
        try:
            handler(message)
        except (RulesError, KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            self._send({"type": "error", "text": f"{kind} refused: {exc}"[:300]})

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
        if m.game_id == "planes" and m.setup_pending():
            commit = message.get("commit")
            if move != "hidden" or not isinstance(commit, str) or len(commit) != 64:
                raise RulesError("a setup is sent as 'hidden' with its commitment")
            self.peer_commit = commit
            self._play_local("hidden")
            self._send_peer_move(len(m.moves) - 1, "hidden")
            return
        self._host_play(move)

    def _host_play(self, move: Any) -> None:
        """Play a move on the host's match and tell the guest what it may see of it."""
        m = self.match
        shooter = m.to_move()
        before = m.state
        self._play_local(move)
        ply, extra = len(m.moves) - 1, {}
        wire = m.moves[-1]
        if m.game_id == "planes" and type(wire) is int and shooter == self.peer_seat:
            wire = [wire, m.rules.answer(before, self.seat, wire)]
        if m.game_id == "banqi" and len(wire) == 2:
            extra["piece"] = m.state.board[m.rules.parse_square(wire)]
        self._send_peer_move(ply, wire, **extra)

    def _guest_receive(self, move: Any, message: dict) -> None:
        m = self.match
        if m.game_id == "planes" and m.setup_pending() and move == "hidden":
            if m.to_move() == self.seat:
                move = self.own_layout
            else:
                commit = message.get("commit")
                if not isinstance(commit, str) or len(commit) != 64:
                    raise RulesError("a setup without its commitment")
                self.peer_commit = commit
        elif m.game_id == "planes" and isinstance(move, list) and m.to_move() == self.seat:
            self.peer_answers.append(list(move))
        piece = message.get("piece")
        if m.game_id == "banqi" and isinstance(move, str) and len(move) == 2:
            if not isinstance(piece, str):
                raise RulesError("a flip without its piece")
            m.states[-1] = m.rules.disclose(m.state, move, piece)
            self.disclosed.append((len(m.moves), move, piece))
        self.waiting = False
        self._play_local(move)
        self._after_move()

    def _on_shot(self, message: dict) -> None:
        """The host shoots at this guest's layout: answer it truthfully."""
        m, cell = self.match, message["cell"]
        if self.is_host or m.game_id != "planes" or m.to_move() != self.peer_seat \
                or message["ply"] != len(m.moves) or cell not in m.legal_moves():
            raise RulesError("a shot out of turn")
        self._send({"type": "answer", "ply": message["ply"], "cell": cell,
                    "answer": m.rules.answer(m.state, self.seat, cell)})

    def _on_answer(self, message: dict) -> None:
        m, cell, answer = self.match, message["cell"], message["answer"]
        if not self.is_host or self.pending_shot is None or cell != self.pending_shot \
                or message["ply"] != len(m.moves) or answer not in m.rules.ANSWERS:
            raise RulesError("an answer to no shot")
        self.pending_shot, self.waiting = None, False
        self.peer_answers.append([cell, answer])
        self._play_local([cell, answer])
        self._send_peer_move(len(m.moves) - 1, cell)

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
        self._send({"type": "new_game", "seed": self._seed_for_guest()})

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
            self._send({"type": reply, "accept": accept, **extra})
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
        self.disclosed = [d for d in self.disclosed if d[0] < len(self.match.moves)]
        self.peer_answers = self._answers_in(self.match)
        self.waiting, self.pending_shot = False, None
        if taken:
            self._note("message", text="A move was taken back")
        self._note("refresh")

    def _answers_in(self, m: Match) -> list[list]:
        return [list(w) for w in m.moves if isinstance(w, list) and len(w) == 2
                and isinstance(w[1], str)]

    # --- the ends and the checks
    def _after_move(self) -> None:
        if self.match.over and not self.revealed:
            self.revealed = True
            secret = self.secret()
            if secret is not None:
                self._send({"type": "reveal", **secret})

    def secret(self) -> dict | None:
        """What this side reveals at the end: its plane layout, or (host) the Banqi seed."""
        if self.match.game_id == "planes" and self.own_layout is not None:
            return {"layout": self.own_layout, "salt": self.salt}
        if self.match.game_id == "banqi" and self.is_host:
            return {"seed": self.match.seed, "salt": self.salt}
        return None

    def secret_expected(self) -> bool:
        """Whether the peer has a secret to reveal at the end."""
        if self.match.game_id == "planes":
            return self.peer_commit is not None
        return self.match.game_id == "banqi" and not self.is_host

    def check_reveal(self, message: dict) -> str:
        """The one-line verdict on the peer's revealed secret."""
        m, salt = self.match, message["salt"]
        if m.game_id == "planes":
            layout = message["layout"]
            if self.peer_commit is None or commitment(salt, layout) != self.peer_commit:
                return f"Warning: {self.peer_name}'s layout does not match its commitment"
            problem = m.rules.check_layout(m.options["size"], m.options["planes"], layout,
                                           self.peer_answers)
            if problem:
                return f"Warning: {self.peer_name} answered falsely: {problem}"
            return f"{self.peer_name}'s layout checked: it matches every answer"
        if m.game_id == "banqi":
            seed = message["seed"]
            if self.peer_commit is None or commitment(salt, seed) != self.peer_commit:
                return f"Warning: {self.peer_name}'s seed does not match its commitment"
            problem = self._check_flips(seed)
            return problem or "The host's deal checked: every flip came from its seed"
        return ""

    def _check_flips(self, seed: int) -> str:
        truth = Match(self.match.game_id, self.match.options, seed)
        for ply, move in enumerate(self.match.moves):
            if isinstance(move, str) and len(move) == 2:
                told = next((p for q, s, p in self.disclosed if q == ply), None)
                sq = truth.rules.parse_square(move)
                if truth.state.under[sq] != told:
                    return (f"Warning: the host's flip at {move} (move {ply + 1}) does not "
                            "come from the seed it committed to")
            truth.play(move)
        return ""

    # --- the plumbing
    def new_game(self, seed: int) -> None:
        """A rematch: a fresh match with the same seats and options."""
        m = self.match
        if not self.is_host and m.game_id == "banqi":
            seed = random.randrange(2**31)
        self.match = Match(m.game_id, m.options, seed, m.seats)
        self.own_layout, self.peer_commit, self.peer_answers = None, None, []
        self.peer_log, self.disclosed, self.revealed, self.verdict = [], [], False, ""
        self.salt, self.waiting, self.pending_shot = secrets.token_bytes(16), False, None
        if self.is_host and m.game_id == "banqi":
            self._send({"type": "commit", "hash": commitment(self.salt, self.match.seed)})
        self.notes.append({"type": "new_game"})

    def _on_commit(self, message: dict) -> None:
        if not self.is_host and isinstance(message.get("hash"), str):
            self.peer_commit = message["hash"]

    def _seed_for_guest(self) -> int:
        return random.randrange(2**31) if self.match.game_id == "banqi" else self.match.seed

    def _play_local(self, move: Any) -> None:
        self.match.play(move)
        self._note("refresh", animate=True)

    def _send_peer_move(self, ply: int, move: Any, **extra: Any) -> None:
        message = {"type": "move", "ply": ply, "move": move, **extra}
        self.peer_log.append(message)
        self._send(message)
        self._after_move()

    def _send(self, message: dict) -> None:
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
        if m.game_id == "banqi":
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
        self.match = Match(game, options, seed, seats)
        if isinstance(welcome.get("commit"), str):
            self.peer_commit = welcome["commit"]
        self.peer_answers, self.disclosed = [], []
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
        self.link, self.connected, self.waiting, self.pending_shot = link, True, False, None
        if self.is_host:
            self._send(self.welcome())
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
    session._send(session.welcome())
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
