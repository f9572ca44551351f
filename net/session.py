"""A LAN game seen from one side: the moves, the checks, and the link (a players.table.Remote).

The host is authoritative: it holds the match, checks every move the guest sends and echoes
each accepted move back in the form the guest may see. The guest plays a move only when the
host's echo arrives, so both keep the same move list (save for what each may not see).

What stays hidden is each game's own business (net/secrets/<id>.py behind `Secrets`); the
session names no game. Offers and questions are in net/offers.py, the end and the reveals in
net/ending.py, welcomes, resumes and saves in net/rejoin.py, the message table in
net/messages.py, hosting and joining in net/hosting.py (whose names this module passes on to
the client and headless play); a game taken up from its save in net/takeup.py. The phases are
drawn in docs/lan.md.

Nothing from the wire is trusted: each message passes `messages.refusal` (its declared type,
fields, phase and side) before a handler runs; a refused one is answered with an error frame
(a key and values, not prose) and changes nothing. A message whose handling fails in any other
way is a protocol violation: the link is closed with that verdict.
"""

from __future__ import annotations

import queue
import secrets
import threading
from collections.abc import Callable
from typing import Any

from game.i18n import N_, Text
from game.match import Match, Seat, SeatKind
from game.rules import RulesError
from game.text import NAME_MAX
from net import messages
from net.ending import (
    REVEAL_WAIT,  # noqa: F401
    Ends,
    clock,
)
from net.hosting import (  # noqa: F401 (the LAN's names, as the client and headless know them)
    HELLO_TIMEOUT,
    NO_WELCOME,
    Host,
    JoinFailed,
    check_hello,
    check_lan_options,
    fixed_lan_options,
    hello,
    join,
    lan_games,
    lan_save_name,
    secrets_for,
    unreachable,
)
from net.link import Link, LinkClosed
from net.messages import MESSAGES  # noqa: F401
from net.offers import Offers
from net.peer_text import peer_line, peer_name
from net.rejoin import Rejoin
from net.secrets import Secrets, Violation
from players.events import Event, EventKind


def in_thread(work: Callable[[], None]) -> None:
    threading.Thread(target=work, daemon=True, name="lan-rejoin").start()


class Session(Offers, Ends, Rejoin):
    """One side of a LAN game. The loop calls events() each frame and submit() for local moves;
    `now` is the clock of the reveal's deadline and of knocking again after a lost link."""

    def __init__(self, link: Link, match: Match, seat: int, is_host: bool, *,
                 token: str = "", peer_name: str = "the other player",
                 now: Callable[[], float] = clock):
        self.link, self.match, self.seat, self.is_host = link, match, seat, is_host
        self.peer_seat, self.token, self.peer_name, self.now = 1 - seat, token, peer_name, now
        self._waiting = False  # a local move is out and its echo (or answer) has not come
        self.sent_move: Any = None  # guest: the move it sent, which the host's echo must be
        self.own_sent: dict[int, Any] = {}  # guest: ply -> the move it sent there (resumes)
        self.peer_log: list[dict] = []  # host: each ply as the guest was told it
        self.peer_seen = 0  # host: the most plies the guest has shown it saw
        self.undone: tuple[int, Match, list[dict]] | None = None
        self.unsent_end: dict | None = None  # this side's end the peer could not be told
        self.violation = ""  # why the peer was cut off, if it broke the protocol
        self.connected, self.closed = True, False
        self.notes: list[Event] = []  # what happened, for the table
        self.salt = secrets.token_bytes(16)
        self.peer_commit: str | None = None
        self.hidden: Secrets = secrets_for(match.game_id)(self)  # what this game keeps back
        self.server: Host | None = None  # host: where a lost guest comes back
        self.address: tuple[str, int] | None = None  # guest: where to knock again
        self.rejoin: Callable[[], tuple[Link, dict]] = self._join_again
        self.off_loop: Callable[[Callable[[], None]], None] = in_thread
        self._rejoined: queue.Queue = queue.Queue()
        self._knocking, self._next_knock = False, 0.0
        self._init_offers()
        self._init_end()

    @property
    def waiting(self) -> bool:
        """True while this side may not move: its move or its takeback request is out, or the
        game's secrets are not ready (a deal still being shuffled)."""
        return self._waiting or "takeback" in self.offers or not self.hidden.ready()

    @waiting.setter
    def waiting(self, value: bool) -> None:
        self._waiting = value

    # --- what the table calls
    def events(self) -> list[Event]:
        """Handle what arrived; the notes for the screen (messages, refresh, questions)."""
        self.pump()
        notes, self.notes = self.notes, []
        return notes

    def submit(self, move: Any) -> None:
        """The local seat's move. RulesError (and nothing sent) if it is refused here."""
        m = self.match
        if m.over or m.to_move() != self.seat or self.waiting:
            raise messages.Refused(N_("wait for your turn"))
        if not self.connected:
            raise messages.Refused(N_("the other player is not connected"))
        if self.hidden.submit(move):
            return
        if self.is_host:
            self.host_play(move)
        else:
            move = m.rules.move_to_wire(m.rules.move_from_wire(move))
            m.rules.apply(m.state, move)  # the rules judge it (RulesError), as they do for the host
            self.send_own_move(move)

    def resign(self, reason: str = "") -> None:
        """The local player gives up (or its bot failed, with the reason)."""
        if not self.match.over:
            reason = peer_line(reason)
            self.match.resign(self.seat, reason)
            message = {"type": "resign", "ply": len(self.match.moves), "detail": reason}
            self.unsent_end = None if self.send(message) else message  # told on a resume
        self.after_move()

    def close(self) -> None:
        if self.match.over and not self.connected and self.reveal_awaited():
            self.unproven()  # the peer left owing its reveal: this side waits no longer
        self.closed = True
        self.send({"type": "bye"})
        self.link.close("left the game")
        if self.server is not None:
            self.server.stop()

    # --- the messages
    def pump(self) -> None:
        while (message := self.link.receive()) is not None:
            if isinstance(message, LinkClosed):
                text = message.get("text")
                self._link_lost(text if isinstance(text, Text) else Text(message["reason"]))
            else:
                self.handle(message)
        if self.match.over:
            self.check_reveal_due()
        # The host takes back a guest that shows its token even when it owes nothing itself:
        # the guest knocks only if it still misses something (the last move, the end).
        if not self.connected and not self.closed and not self.violation and (
                self.is_host or self._owed()):
            self._try_resume()

    def handle(self, message: dict) -> None:
        """One message from the peer. One it may not send now is answered with an error and
        changes nothing; one whose handling fails otherwise ends the link as a violation."""
        if self.violation or not self.connected:
            return
        kind = message.get("type")
        problem = messages.refusal(
            message, self.hidden.FIELDS, over=self.match.over, offers=self.offers,
            host=self.is_host, rematch_agreed=self.rematch_agreed,
            reveal_due=self.reveal_awaited())
        if problem is messages.STALE:
            return  # it crossed the end, which is on its way to the peer
        if problem is not None:
            if kind != "error":  # never answer an error with an error
                self.send(messages.error_frame(kind, problem))
            return
        handler = getattr(self, f"_on_{kind}", None) or self.hidden.handlers()[str(kind)]
        ready = self.hidden.ready()
        try:
            handler(message)
        except RulesError as exc:
            reason = exc.text or Text(str(exc)[:200])
            self.send(messages.error_frame(kind, reason))
        except Exception as exc:  # a Violation, or any failure a crafted message could cause
            self.cut_off(f"{kind}: {exc}" if isinstance(exc, Violation)
                         else f"a {kind} message broke this side ({type(exc).__name__})")
        if not ready and self.hidden.ready():  # the deal crossed: this side's moves open up
            self._note(EventKind.REFRESH)
        ply = message.get("ply")
        if type(ply) is int and self.is_host:
            self.peer_seen = max(self.peer_seen, min(ply, len(self.match.moves)))

    def cut_off(self, why: str) -> None:
        """The peer broke the protocol: say so on both sides and end the link."""
        if self.violation:
            return
        self.violation = f"{self.peer_name} broke the protocol: {why}"[:300]
        self.send({"type": "error", "text": self.violation})
        self._say(N_("{name} broke the protocol"))  # the why, English, is in self.violation
        self.link.close(Text(N_("{name} broke the protocol"), {"name": self.peer_name}))
        self.withdraw_questions()

    # --- the moves
    def _on_move(self, message: dict) -> None:
        ply, move, m = message["ply"], message["move"], self.match
        if ply != len(m.moves):
            raise messages.Refused(messages.WRONG_PLY, ply=ply, now=len(m.moves))
        if not self.is_host:
            self._guest_receive(move, message)
            return
        if m.to_move() != self.peer_seat:
            raise messages.Refused(messages.NOT_YOUR_TURN)
        if not self.hidden.receive_as_host(move, message):
            self.host_play(move)

    def host_play(self, move: Any) -> None:
        """Play a move on the host's match and tell the guest what it may see of it."""
        m = self.match
        mover, before = m.to_move(), m.state
        assert mover is not None  # the host plays only while the game goes on
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
        self.after_move()

    def send_own_move(self, move: Any, **extra: Any) -> None:
        """Guest: send this side's move to the host and wait for its echo."""
        self.sent_move = self.own_sent[len(self.match.moves)] = move
        self.send({"type": "move", "ply": len(self.match.moves), "move": move, **extra})
        self.waiting = True

    def play_local(self, move: Any) -> None:
        """Play a move on this side's match and tell the screen."""
        self.match.play(move)
        self.undone = None  # a move after a takeback: the asker heard of it
        self._note(EventKind.MOVED, move=self.match.moves[-1])

    def send_peer_move(self, ply: int, move: Any, **extra: Any) -> None:
        """Host: tell the guest ply `ply` as it may see it (kept for a resuming guest)."""
        message = {"type": "move", "ply": ply, "move": move, **extra}
        self.peer_log.append(message)
        self.send(message)
        self.after_move()

    def _dropped(self, plies: int) -> None:
        """The match went back to `plies` plies (a takeback, moves that crossed the end)."""
        self.peer_log = self.peer_log[:plies]
        self.own_sent = {p: v for p, v in self.own_sent.items() if p < plies}
        self.peer_seen = min(self.peer_seen, plies)
        self.sent_move, self.waiting = None, False
        self.hidden.taken_back()

    # --- the plumbing
    def send(self, message: dict) -> bool:
        """Send a message to the peer; False if it could not go (the link is down)."""
        return self.connected and self.link.send(message) is not False

    def _note(self, kind: EventKind, **fields: Any) -> None:
        self.notes.append(Event(kind, **fields))

    def _say(self, key: str, **params: Any) -> None:
        """A line for the screen; {name} is the other player's."""
        self._note(EventKind.NOTICE, text=Text(key, {"name": self.peer_name, **params}))

    def new_game(self, seed: int) -> None:
        """A rematch: a fresh match with the same seats and options. A reveal the peer still
        owes is judged missing first: its program sends it at the end, before any rematch
        message, and the link keeps their order (the old game becomes the peer's loss)."""
        if self.match.over and self.reveal_awaited():
            self.unproven()
        m = self.match
        self.match = Match(m.game_id, m.options, seed, m.seats) if self.is_host else \
            secrets_for(m.game_id).guest_match(m.game_id, m.options, seed, m.seats, self.seat)
        self.peer_commit, self.peer_log, self.peer_seen, self.undone = None, [], 0, None
        self.salt, self.waiting, self.sent_move = secrets.token_bytes(16), False, None
        self.offers, self.own_sent = {}, {}
        self.withdraw_questions()
        self._init_end()
        self.hidden = type(self.hidden)(self)
        self._note(EventKind.NEW_MATCH)


def start_hosted(link: Link, game: str, options: dict, host_name: str, guest_name: str,
                 host_seat: int = 0, seed: int | None = None) -> Session:
    """Host: the guest is accepted; the session begins and the guest is welcomed."""
    host_name, guest_name = peer_name(host_name), peer_name(guest_name)
    if guest_name == host_name:  # two new players on machines of one name
        guest_name = peer_name(f"{guest_name[:NAME_MAX - 4]} (2)")
    names = [host_name, guest_name] if host_seat == 0 else [guest_name, host_name]
    seats = [Seat(SeatKind.HUMAN if i == host_seat else SeatKind.REMOTE, names[i])
             for i in range(2)]
    match = Match(game, options, seed, seats)
    session = Session(link, match, host_seat, True, token=secrets.token_hex(16),
                      peer_name=guest_name)
    session.send(session.welcome())
    return session


start_joined = Session.from_welcome
restored = Session.from_save
