"""A LAN game seen from one side: the handshake, the moves, and everything around them.

The host is authoritative: it holds the match, checks every move the guest sends and echoes
each accepted move back in the form the guest may see. The guest plays a move only when the
host's echo arrives, so both keep the same move list (save for what each may not see).

What stays hidden is each game's own business: the session asks the game's module in
net/secrets/ (found through the registry) at every step where something may be kept back, and
names no game. At the end each side reveals its secret (a plane layout with the salt of its
commitment, a Banqi key) and the other side checks it; a secret that does not come in time or
does not check makes the game the peer's loss, "unverified", on the screen and in the record.

Nothing from the wire is trusted: each message is one of the declared types in MESSAGES (with
the fields and field types listed there) and is taken only in the phase and from the side that
may send it (`_allowed`); anything else is answered with an error frame and changes nothing. A
message whose handling fails in any other way is a protocol violation: the link is closed with
that verdict. The phases are drawn in docs/lan.md.

Messages are msgpack maps (net/link.py); their fields are in PROTOCOL.md's LAN section.
"""

from __future__ import annotations

import queue
import random
import secrets
import select
import socket
import threading
import time
from typing import Any

from game import APP_VERSION, registry
from game.i18n import N_, Text
from game.match import Ending, Match, Seat
from game.rules import RulesError, Termination
from net.discovery import PROTOCOL
from net.link import HEARTBEAT, Link, LinkClosed, LinkError, connect, encode, read_frame
from net.secrets import Secrets, Verdict, Violation, commitment  # noqa: F401 (re-export)
from players.events import Event, EventKind, Question

HELLO_TIMEOUT = 5.0  # the whole hello, however slowly it drips in
REVEAL_WAIT = 10.0  # how long after the end the peer has to reveal its secret
MAX_GREETING = 16  # connections whose hello is being read at once
MAX_ARRIVALS = 8  # hellos waiting for the host's player
CHAT_MAX = 200

# Every message type the peer may send, with its required fields and their types. A game's own
# types come from its Secrets.FIELDS. Extra fields are allowed (a game's hooks read them).
MESSAGES: dict[str, dict[str, type | tuple[type, ...]]] = {
    "move": {"ply": int}, "resign": {}, "draw_offer": {"ply": int},
    "draw_reply": {"accept": bool}, "takeback": {"ply": int},
    "takeback_reply": {"accept": bool, "ply": int}, "rematch": {},
    "rematch_reply": {"accept": bool}, "new_game": {"seed": int}, "chat": {"text": str},
    "reveal": {}, "error": {"text": str}, "bye": {},
}
_REQUIRED_VALUE = {"move": ("move",)}  # fields that must be present, of any type
_ANY_TIME = {"chat", "error", "bye"}
_WHILE_PLAYING = {"move", "resign", "draw_offer", "draw_reply", "takeback", "takeback_reply"}
_AFTER_END = {"reveal", "rematch", "rematch_reply", "new_game", "resign"}


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
        self._waiting = False  # a local move is out and its echo (or answer) has not come
        self.sent_move: Any = None  # guest: the move it sent, which the host's echo must be
        self.own_sent: dict[int, Any] = {}  # guest: ply -> the move it sent there (resumes)
        self.offers: dict[str, int] = {}  # what this side offered and awaits a reply to: ply
        self.rematch_agreed = False  # guest: a rematch was agreed, the host's new_game may come
        self.violation = ""  # why the peer was cut off, if it broke the protocol
        self.ended_at: float | None = None  # when this side saw the end (the reveal's clock)
        self.connected = True
        self.notes: list[Event] = []  # what happened, for the table
        self.salt = secrets.token_bytes(16)
        self.peer_commit: str | None = None
        self.peer_log: list[dict] = []  # host: each ply as the guest was told it
        self.revealed = False
        self.verdict = ""  # the check of the peer's revealed secret
        self.hidden: Secrets = _secrets_for(match.game_id)(self)  # what this game keeps back
        self.open_questions: set[str] = set()  # the peer's offers the local player has open
        self.closed = False
        self.server: Host | None = None  # host: where a lost guest comes back
        self.address: tuple[str, int] | None = None  # guest: where to knock again
        self._rejoined: queue.Queue = queue.Queue()
        self._knocker: threading.Thread | None = None

    @property
    def waiting(self) -> bool:
        """True while this side may not move: its move is out, or the game's secrets are not
        ready (a deal still being shuffled)."""
        return self._waiting or not self.hidden.ready()

    @waiting.setter
    def waiting(self, value: bool) -> None:
        self._waiting = value

    # --- what the play scene calls
    def events(self) -> list[Event]:
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
            self.host_play(move)
        else:
            move = m.rules.move_to_wire(m.rules.move_from_wire(move))
            if move not in m.legal_moves():
                raise RulesError(f"{move!r} is not legal here")
            self.send_own_move(move)

    def resign(self, reason: str = "") -> None:
        """The local player gives up (or its bot failed, with the reason)."""
        if not self.match.over:
            self.match.resign(self.seat, reason)
        self.send({"type": "resign"})
        self._after_move()

    def offer_draw(self) -> None:
        self.offers["draw"] = len(self.match.moves)
        self.send({"type": "draw_offer", "ply": len(self.match.moves)})

    def request_takeback(self) -> None:
        self.offers["takeback"] = len(self.match.moves)
        self.send({"type": "takeback", "ply": len(self.match.moves)})

    def offer_rematch(self) -> None:
        self.offers["rematch"] = len(self.match.moves)
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
            if isinstance(message, LinkClosed):
                self._link_lost(message["reason"])
            else:
                self.handle(message)
        if self.match.over:
            self._check_reveal_due()
        elif not self.connected and not self.closed and not self.violation:
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
        """One message from the peer. One it may not send now is answered with an error and
        changes nothing; one whose handling fails otherwise ends the link as a violation."""
        if self.violation or not self.connected:
            return
        kind = message.get("type")
        problem = self._allowed(message)
        if problem:
            if kind != "error":  # never answer an error with an error
                self.send({"type": "error", "text": f"{str(kind)[:40]} refused: {problem}"})
            return
        handler = getattr(self, f"_on_{kind}", None) or self.hidden.handlers()[kind]
        try:
            handler(message)
        except RulesError as exc:
            self.send({"type": "error", "text": f"{kind} refused: {exc}"[:300]})
        except Exception as exc:  # a Violation, or any failure a crafted message could cause
            self.cut_off(f"{kind}: {exc}" if isinstance(exc, Violation)
                         else f"a {kind} message broke this side ({type(exc).__name__})")

    def _allowed(self, message: dict) -> str:
        """Why this message may not come now ("" if it may): its type, fields and phase."""
        kind = message.get("type")
        game_fields = self.hidden.FIELDS
        fields = MESSAGES.get(kind) if kind in MESSAGES else game_fields.get(kind)
        if fields is None:
            return "unknown message"
        for name, types in fields.items():
            value = message.get(name)
            if not isinstance(value, types) or (types is int and type(value) is bool):
                return f"its {name!r} is missing or of the wrong type"
        for name in _REQUIRED_VALUE.get(kind, ()):
            if name not in message:
                return f"its {name!r} is missing"
        over = self.match.over
        if kind in _ANY_TIME:
            return ""
        if kind in game_fields or kind in _WHILE_PLAYING:
            if over and kind != "resign":
                return "the game is over"
        elif kind in _AFTER_END and not over:
            return "the game is not over"
        replies = {"draw_reply": "draw", "takeback_reply": "takeback", "rematch_reply": "rematch"}
        if kind in replies and replies[kind] not in self.offers:
            return "no such offer is pending"
        if kind == "new_game" and (self.is_host or not self.rematch_agreed):
            return "no rematch was agreed"
        if kind == "reveal" and (self.verdict or not self.secret_expected()):
            return "no reveal is due"
        return ""

    def cut_off(self, why: str) -> None:
        """The peer broke the protocol: say so on both sides and end the link."""
        if self.violation:
            return
        self.violation = f"{self.peer_name} broke the protocol: {why}"[:300]
        self.send({"type": "error", "text": self.violation})
        self._say(N_("{name} broke the protocol: {why}"), why=why[:250])
        self.link.close(self.violation)

    def _link_lost(self, reason: str) -> None:
        was, self.connected = self.connected, False
        self.waiting = False
        if self.match.over or not was:  # a bye said so already
            return
        self._say(N_("Connection lost: {reason}"), reason=reason)
        self._note(EventKind.PEER_LOST, text=Text(N_("Connection lost: {reason}"),
                                                   {"reason": reason}))

    def _on_bye(self, message: dict) -> None:
        self.connected = False
        self.link.close("the other side left")
        if not self.match.over:
            self._note(EventKind.PEER_LOST, text=Text(N_("{name} left"), {"name": self.peer_name}))

    def _on_error(self, message: dict) -> None:
        self.waiting = False
        self._say(N_("{name}: {text}"), text=str(message.get("text", ""))[:200])

    def _on_chat(self, message: dict) -> None:
        self._say(N_("{name}: {text}"), text=message["text"][:CHAT_MAX])

    def _on_move(self, message: dict) -> None:
        ply, move = message["ply"], message["move"]
        m = self.match
        if ply != len(m.moves):
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
        self.host_play(move)

    def host_play(self, move: Any) -> None:
        """Play a move on the host's match and tell the guest what it may see of it."""
        m = self.match
        mover, before = m.to_move(), m.state
        self.play_local(move)
        wire, extra = self.hidden.echo(before, mover, m.moves[-1])
        self.send_peer_move(len(m.moves) - 1, wire, **extra)

    def _guest_receive(self, move: Any, message: dict) -> None:
        if self.match.to_move() == self.seat:  # the host may only echo what this side played
            if self.sent_move is None or not self.hidden.own_echo(self.sent_move, move):
                raise Violation(f"the host played {str(move)[:40]} for this side")
            self.sent_move = None
        move = self.hidden.receive_as_guest(move, message)
        self.waiting = False
        self.play_local(move)
        self._after_move()

    def send_own_move(self, move: Any, **extra: Any) -> None:
        """Guest: send this side's move to the host and wait for its echo."""
        self.sent_move = self.own_sent[len(self.match.moves)] = move
        self.send({"type": "move", "ply": len(self.match.moves), "move": move, **extra})
        self.waiting = True

    def _on_resign(self, message: dict) -> None:
        if not self.match.over:
            self.match.resign(self.peer_seat, f"{self.peer_name} resigned")
            self._note(EventKind.REFRESH)
            self._after_move()

    def _on_draw_offer(self, message: dict) -> None:
        if message["ply"] != len(self.match.moves):  # made before a move crossed it: void
            self.send({"type": "draw_reply", "accept": False})
            return
        self._ask(N_("{name} offers a draw"), "draw_reply", N_("Accept"), N_("Decline"))

    def _on_draw_reply(self, message: dict) -> None:
        del self.offers["draw"]
        if message.get("accept") is True and not self.match.over:
            self.match.agree_draw("Draw agreed")
            self._note(EventKind.REFRESH)
            self._after_move()
        elif message.get("accept") is False:
            self._say(N_("{name} declined the draw"))

    def _on_takeback(self, message: dict) -> None:
        if message["ply"] != len(self.match.moves) or self.waiting:  # stale: void
            self.send({"type": "takeback_reply", "accept": False, "ply": message["ply"]})
            return
        self._ask(N_("{name} asks to take back a move"), "takeback_reply",
                  N_("Allow"), N_("Refuse"), ply=len(self.match.moves))

    def _on_takeback_reply(self, message: dict) -> None:
        asked = self.offers.pop("takeback")
        if message["accept"] and message["ply"] == asked == len(self.match.moves):
            self._take_back(self.seat)
        elif message.get("accept") is False:
            self._say(N_("{name} refused the takeback"))

    def _on_rematch(self, message: dict) -> None:
        if self.match.over:
            self._ask(N_("{name} wants a rematch"), "rematch_reply", N_("Play again"), N_("No"))

    def _on_rematch_reply(self, message: dict) -> None:
        del self.offers["rematch"]
        if message["accept"] and not self.is_host:
            self.rematch_agreed = True
        if message["accept"] and self.is_host:
            self._start_rematch()
        elif message.get("accept") is False:
            self._say(N_("{name} does not want a rematch"))

    def _start_rematch(self) -> None:
        self.new_game(random.randrange(2**31))
        self.send({"type": "new_game", "seed": self._seed_for_guest(),
                   **self.hidden.welcome_fields()})

    def _on_new_game(self, message: dict) -> None:
        self.rematch_agreed = False
        self.new_game(message["seed"])
        self.hidden.welcomed(message)

    def _on_reveal(self, message: dict) -> None:
        try:
            verdict = self.check_reveal(message)
        except Exception as exc:  # a reveal that does not even parse proves nothing
            verdict = Verdict(f"unverified: {self.peer_name}'s reveal does not parse "
                              f"({type(exc).__name__})", ok=False)
        self._settle(verdict)

    def _check_reveal_due(self) -> None:
        """The end: the peer's secret must come, and in time; if not, its result is void."""
        if self.ended_at is None:
            self.ended_at = time.monotonic()
        if self.verdict or self.closed or not self.secret_expected():
            return
        if not self.connected or time.monotonic() - self.ended_at > REVEAL_WAIT:
            self._settle(Verdict(f"unverified: {self.peer_name} {self.hidden.UNPROVEN}",
                                 ok=False))

    def _settle(self, verdict: Verdict) -> None:
        """Take the verdict on the peer's secret; a failed one makes the game the peer's loss."""
        self.verdict = verdict
        self._note(EventKind.NOTICE, text=Text(str(verdict)))
        if not verdict.ok:
            self.match.ending = Ending(self.peer_seat, Termination.FAILURE, str(verdict)[:200])
            self._note(EventKind.REFRESH)

    # --- answering the peer's questions
    def _ask(self, question: str, reply: str, yes: str, no: str, **extra: Any) -> None:
        """Put the peer's offer to the local player: one open question of each kind; a repeat
        while it is open is declined at once. An answer given after the game moved on (a move,
        the end, another match) declines."""
        if reply in self.open_questions:
            self.send({"type": reply, "accept": False, **extra})
            return
        self.open_questions.add(reply)
        asked = [(len(self.match.moves), self.match, self.match.over)]  # emptied once answered

        def answer(accept: bool) -> None:
            if not asked:
                return  # each question is answered once
            self.open_questions.discard(reply)
            if asked.pop() != (len(self.match.moves), self.match, self.match.over):
                accept = False  # the game moved on since: the offer no longer fits
            self.send({"type": reply, "accept": accept, **extra})
            if accept and reply == "rematch_reply" and not self.is_host:
                self.rematch_agreed = True
            if accept and reply == "draw_reply":
                self.match.agree_draw("Draw agreed")
                self._after_move()
            if accept and reply == "takeback_reply":
                self._take_back(self.peer_seat)
            if accept and reply == "rematch_reply" and self.is_host:
                self._start_rematch()
        self._note(EventKind.ASK, question=Question(
            Text(question, {"name": self.peer_name}), Text(""), Text(yes), Text(no),
            on_yes=lambda: answer(True), on_no=lambda: answer(False)))

    def _take_back(self, seat: int) -> None:
        """Both sides take back to `seat`'s last turn."""
        taken = self.match.undo_for(seat)
        self.peer_log = self.peer_log[:len(self.match.moves)]
        self.own_sent = {p: v for p, v in self.own_sent.items() if p < len(self.match.moves)}
        self.hidden.taken_back()
        self.waiting = False
        if taken:
            self._say(N_("A move was taken back"))
        self._note(EventKind.REFRESH)

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

    def settled(self) -> bool:
        """The record is final: no reveal from the peer is still awaited (or the link is gone).
        A replay written before then could miss what the reveal brings (a fog game's moves)."""
        return not self.connected or bool(self.verdict) or not self.secret_expected()

    def secret_expected(self) -> bool:
        """Whether the peer has a secret to reveal at the end."""
        return self.hidden.secret_expected()

    def check_reveal(self, message: dict) -> Verdict:
        """The one-line verdict on the peer's revealed secret."""
        salt = message.get("salt")
        return self.hidden.check_reveal(salt if isinstance(salt, bytes) else b"", message)

    # --- the plumbing
    def new_game(self, seed: int) -> None:
        """A rematch: a fresh match with the same seats and options."""
        m = self.match
        self.match = Match(m.game_id, m.options, seed, m.seats) if self.is_host else \
            _secrets_for(m.game_id).guest_match(m.game_id, m.options, seed, m.seats, self.seat)
        self.peer_commit, self.peer_log, self.revealed, self.verdict = None, [], False, ""
        self.salt, self.waiting, self.sent_move = secrets.token_bytes(16), False, None
        self.offers, self.ended_at, self.own_sent = {}, None, {}
        self.open_questions = set()
        self.hidden = type(self.hidden)(self)
        self._note(EventKind.NEW_MATCH)

    def _seed_for_guest(self) -> int:
        return random.randrange(2**31) if self.hidden.OWN_SEEDS else self.match.seed

    def play_local(self, move: Any) -> None:
        """Play a move on this side's match and tell the screen."""
        self.match.play(move)
        self._note(EventKind.MOVED, move=self.match.moves[-1])

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

    def _note(self, kind: EventKind, **fields: Any) -> None:
        self.notes.append(Event(kind, **fields))

    def _say(self, key: str, **params: Any) -> None:
        """A line for the screen; {name} is the other player's."""
        self._note(EventKind.NOTICE, text=Text(key, {"name": self.peer_name, **params}))

    def welcome(self) -> dict:
        """Host: what a (re)joining guest is told: its seat, the seed it may have, the moves."""
        m = self.match
        message = {"type": "welcome", "protocol": PROTOCOL, "version": APP_VERSION,
                   "game": m.game_id, "options": m.options, "seat": self.peer_seat,
                   "seats": [s.to_dict() for s in m.seats], "seed": self._seed_for_guest(),
                   "token": self.token, "moves": self.peer_log, "own_layout": None,
                   **self.hidden.welcome_fields()}
        return message

    def rebuild(self, welcome: dict) -> None:
        """Guest: the match from the host's welcome (its own layout kept, on a resume)."""
        game = welcome["game"]
        options = check_lan_options(game, welcome["options"])
        seats = [Seat.from_dict(s) for s in welcome["seats"]]
        for i, s in enumerate(seats):
            s.kind = "human" if i == self.seat else "remote"
        seed = welcome["seed"] if type(welcome["seed"]) is int else 0
        self.match = _secrets_for(game).guest_match(game, options, seed, seats, self.seat)
        if type(self.hidden) is not _secrets_for(game):
            self.hidden = _secrets_for(game)(self)
        self.hidden.replaying()
        try:
            self.hidden.welcomed(welcome)
        except Violation as exc:
            raise ConnectionError(f"the host's welcome does not hold: {exc}") from None
        self.sent_move = None
        connected, self.connected = self.connected, False  # nothing is sent while rebuilding
        try:
            if not isinstance(welcome.get("moves"), list):
                raise ConnectionError("a welcome without its move list")
            for message in welcome["moves"]:
                if not isinstance(message, dict) or "move" not in message:
                    raise ConnectionError("a welcome with a damaged move list")
                if self.match.to_move() == self.seat:  # only what this side sent there
                    self.sent_move = self.own_sent.get(len(self.match.moves))
                self._guest_receive(message["move"], message)
        except (RulesError, Violation) as exc:
            raise ConnectionError(f"the host's move list does not play: {exc}") from None
        finally:
            self.connected = connected
        self.revealed, self.offers = False, {}
        self.notes.clear()

    def resume(self, link: Link, welcome: dict | None = None) -> None:
        """The peer is back on a new link; the game goes on from the move list."""
        self.link, self.connected, self.waiting = link, True, False
        self.offers, self.sent_move, self.open_questions = {}, None, set()
        self.hidden.resumed()
        if self.is_host:
            self.send(self.welcome())
        elif welcome is not None:
            self.rebuild(welcome)
        self._say(N_("{name} is back"))
        self._note(EventKind.REFRESH)


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
        self.arrivals: queue.Queue[tuple[Link, dict]] = queue.Queue(MAX_ARRIVALS)
        self.refused: list[str] = []  # why recent connections were turned away (for tests)
        self.accept_errors = 0  # accept() failures lived through (out of descriptors, ...)
        self._greeting = threading.BoundedSemaphore(MAX_GREETING)
        self._stop = threading.Event()
        threading.Thread(target=self._accept_loop, daemon=True, name="lan-accept").start()

    def stop(self) -> None:
        self._stop.set()
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
            if not self._greeting.acquire(blocking=False):
                self._turn_away(sock, "too many connections at once")
                continue
            try:
                threading.Thread(target=self._greet, args=(sock,), daemon=True,
                                 name="lan-hello").start()
            except RuntimeError:  # no thread to be had
                self._greeting.release()
                self._turn_away(sock, "too many connections at once")

    def _turn_away(self, sock: socket.socket, problem: str) -> None:
        self.refused.append(problem)
        del self.refused[:-50]
        try:
            sock.settimeout(1.0)
            sock.sendall(encode({"type": "refused", "reason": problem}))
        except OSError:
            pass
        sock.close()

    def _greet(self, sock: socket.socket) -> None:
        try:
            try:  # one deadline for the whole hello, however it drips in
                message = read_frame(sock, time.monotonic() + HELLO_TIMEOUT)
                problem = check_hello(message, self.game, self.options)
            except (LinkError, OSError) as exc:
                self.refused.append(str(exc) or "no hello in time")
                sock.close()
                return
            if problem:
                self._turn_away(sock, problem)
                return
            if self.arrivals.full():
                self._turn_away(sock, "too many players are waiting to be let in")
                return
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.arrivals.put((Link(sock).start(), message))
        finally:
            self._greeting.release()

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
    """Guest: connect, say hello and wait for the welcome, all within `wait` seconds (the
    host's keep-alive pings are skipped, and answered, while its player decides). Blocking: call
    it off the loop. ConnectionError with the host's reason if refused."""
    deadline = time.monotonic() + wait
    sock = connect(*address, timeout=min(5.0, wait))
    try:
        sock.sendall(encode(hello(game, options, name, token)))
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise LinkError(f"no welcome within {wait:g} s")
            readable, _, _ = select.select([sock], [], [], min(left, HEARTBEAT))
            if not readable:
                sock.sendall(encode({"type": "ping"}))  # still here: the host's link waits
                continue
            message = read_frame(sock, deadline)
            if message.get("type") != "ping":
                break
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
