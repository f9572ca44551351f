"""Taking a LAN game up again: the welcome a (re)joining guest gets, the guest's match rebuilt
from it, knocking again after a lost link, and a side taken up from its save after its window
closed or its program was killed (a part of net.session.Session).

A save of a LAN game keeps, beside the record, what this side needs to go on (`save_extra`):
its seat, role, resume token, where the host was, the salt and the game's own secrets (a Banqi
key and shuffle, a plane layout), and the plies as the guest was told them. `restored` makes a
session from it that waits for the other side: a host listens again and takes back the guest
that shows the same token (a stranger is refused); a guest knocks at the host's address.
"""

from __future__ import annotations

import math
import queue
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from game import APP_VERSION
from game.i18n import N_, Text
from game.match import CLAIM_AFTER, CLAIMED, Match, Seat, SeatKind
from game.rules import RulesError, Termination
from net import messages
from net.discovery import PROTOCOL
from net.hosting import Host, check_lan_options, join, secrets_for
from net.link import TIMEOUT, Link
from net.peer_text import peer_name
from net.secrets import Secrets, Side, Violation
from players.events import Event, EventKind

KNOCK_EVERY = 1.0  # guest: seconds between two tries to get back to a lost host
wall = time.time  # the clock a save's time is told by, across a restart (tests move it)


class Gone:
    """The link of a side taken up from its save, before the other side is back."""

    open = False
    peer = ""
    inbox: list = []

    def send(self, message: dict) -> bool:
        return False

    def receive(self) -> None:
        return None

    def close(self, reason: str = "") -> None:
        pass


class Rejoin:
    """Welcomes, resumes and saves (see the module's docstring)."""

    match: Match
    seat: int
    peer_seat: int
    is_host: bool
    token: str
    peer_name: str
    hidden: Secrets
    came_back = False  # taken up from its save, the other side not yet met again
    away_since: float | None = None  # when this side saw the link go (None: not known)
    claim_refused = False  # guest: the host claimed the game too soon; it is not knocked at again
    claim_told = False  # guest: the host has heard of this side's claim (a knock said it)
    link: Any
    connected: bool
    notes: list[Event]
    now: Callable[[], float]
    salt: bytes
    peer_commit: str | None
    peer_log: list[dict]
    own_sent: dict[int, Any]
    peer_seen: int
    sent_move: Any
    offers: dict[str, int]
    undone: Any
    unsent_end: dict | None
    revealed: bool
    server: Host | None
    address: tuple[str, int] | None
    rejoin: Callable[[], tuple[Link, dict]]
    off_loop: Callable[[Callable[[], None]], None]
    _rejoined: queue.Queue
    _knocking: bool
    _next_knock: float

    if TYPE_CHECKING:  # what the session provides
        def send(self, message: dict) -> bool: ...
        def resign(self, reason: str = "") -> None: ...
        def after_move(self) -> None: ...
        def _note(self, kind: EventKind, **fields: Any) -> None: ...
        def _say(self, key: str, **params: Any) -> None: ...
        def _guest_receive(self, move: Any, message: dict) -> None: ...
        def withdraw_questions(self) -> None: ...
        @property
        def waiting(self) -> bool: ...
        @waiting.setter
        def waiting(self, value: bool) -> None: ...

    def _seed_for_guest(self) -> int:
        return random.randrange(2**31) if self.hidden.OWN_SEEDS else self.match.seed

    def welcome(self) -> dict:
        """Host: what a (re)joining guest is told: its seat, the seed it may have, the moves."""
        m = self.match
        return {"type": "welcome", "protocol": PROTOCOL, "version": APP_VERSION,
                "game": m.game_id, "options": m.options, "seat": self.peer_seat,
                "seats": [s.to_dict() for s in m.seats], "seed": self._seed_for_guest(),
                "token": self.token, "moves": self.peer_log, "own_layout": None,
                "claimed": self.claimed(), **self.hidden.welcome_fields()}

    def claimed(self) -> bool:
        """Whether this side claimed the game while the other player was gone."""
        ending = self.match.ending
        return ending is not None and ending.loser == self.peer_seat and \
            ending.termination is Termination.DISCONNECT

    def rebuild(self, welcome: dict) -> None:
        """Guest: the match from the host's welcome (its own secrets kept, on a resume)."""
        game = welcome["game"]
        options = check_lan_options(game, welcome["options"])
        seats = [Seat.from_dict(s) for s in welcome["seats"]]
        for i, s in enumerate(seats):
            s.kind = SeatKind.HUMAN if i == self.seat else SeatKind.REMOTE
            s.name = peer_name(s.name, s.name if isinstance(s.name, str) else "?")
        seed = welcome["seed"] if type(welcome["seed"]) is int else 0
        self.match = secrets_for(game).guest_match(game, options, seed, seats, self.seat)
        if type(self.hidden) is not secrets_for(game):
            self.hidden = secrets_for(game)(cast(Side, self))
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
        self.offers = {}
        self.notes.clear()

    # --- a lost link, and the peer back on a new one
    def _try_resume(self) -> None:
        """Host: take back a guest that shows its token. Guest: knock again, off the loop."""
        if self.is_host and self.server is not None:
            while (arrival := self.server.next_arrival()) is not None:
                link, hello_ = arrival
                if hello_.get("token") == self.token:
                    self.resume(link, hello_)
                    return
                link.send(messages.refused_frame(Text(messages.IN_A_GAME)))
                link.close("refused")
        elif not self.is_host and self.address is not None:
            if self._rejoined.empty() and not self._knocking and self.now() >= self._next_knock:
                self._knocking, self._next_knock = True, self.now() + KNOCK_EVERY
                self.off_loop(self._knock)
            try:
                link, welcome = self._rejoined.get_nowait()
            except queue.Empty:
                return
            self.resume(link, welcome)

    def _knock(self) -> None:
        try:
            self._rejoined.put(self.rejoin())
        except (ConnectionError, OSError):
            pass
        finally:
            self._knocking = False

    def _join_again(self) -> tuple[Link, dict]:
        assert self.address is not None
        return join(self.address, self.match.game_id, self.match.options,
                    self.match.seats[self.seat].name, self.token, wait=5.0,
                    claimed=self.claimed())

    def resume(self, link: Link, message: dict | None = None) -> None:
        """The peer is back on a new link (`message`: the guest's hello, or the host's welcome);
        the game goes on from the move list. A claim it brings is heeded here: only on a
        return (a first welcome saying so would end a game never played), and only if this
        side was gone long enough for a claim."""
        said = message is not None and message.get("claimed") is True
        if not self.is_host and self.claimed():  # the knock told the host; nothing to go on with
            self.claim_told = True
            link.close("the game was claimed")
            return
        if not self.is_host and said and self._claimed_too_soon():
            self._refuse_claim(link)
            return
        self.link, self.connected, self.waiting = link, True, False
        too_soon, gone_since, self.away_since = self._claimed_too_soon(), self.away_since, None
        self.linked_at = self.now()  # a reveal still owed has its whole time again
        self.offers, self.sent_move, self.undone = {}, None, None
        self.withdraw_questions()
        self.unsent_end = None
        ending = self.match.ending
        gave_up = ending if ending is not None and ending.loser == self.seat and \
            ending.termination is Termination.RESIGNATION else None
        heeded = said and not too_soon and (not self.is_host or not self.match.over)
        if self.is_host:
            if heeded:
                self.match.resign(self.seat, CLAIMED, Termination.DISCONNECT)
            self.send(self.welcome())
            if gave_up is not None:  # the guest may not have heard it
                self.send({"type": "resign", "ply": len(self.match.moves),
                           "detail": gave_up.detail})
        elif message is not None:
            began = self.match.started
            self.rebuild(message)
            self.match.started = began  # the same game, not one begun now
            if heeded:
                self.match.resign(self.seat, CLAIMED, Termination.DISCONNECT)
            if gave_up is not None and not self.match.over:  # given up: say it again
                self.resign(gave_up.detail)
        if not self.match.over:
            self.hidden.resumed()  # after the welcome: a flip or shot asked is asked again
        self.revealed = False  # a reveal goes again: the dropped link may have lost it, sent
        self.after_move()  # or not (the peer drops one it has checked already)
        if heeded:  # not "back in the game": it is over
            self._say(N_("{name} claimed the game while you were away"))
        else:  # the side that came back from its save is told it is back, not the other one
            self._say(N_("Back in the game with {name}") if self.came_back else
                      N_("{name} is back"))
            if said and self.is_host and not self.match.over:
                self._say_too_soon(gone_since)
        self.came_back = False
        self._note(EventKind.REFRESH)

    def _claimed_too_soon(self) -> bool:
        """The other side says it claimed the game, but this side has not been gone as long as
        a claim needs (less the time a link may take to notice it is lost: the other side may
        have seen it first). Taken up from its save, this side counts from the save's time (not
        known in an older save: then the claim is believed)."""
        return self.away_since is not None and \
            self.now() - self.away_since < CLAIM_AFTER - TIMEOUT

    def _say_too_soon(self, since: float | None) -> None:
        gone = int(self.now() - since) if since is not None else 0
        self._say(N_("{name} claimed the game when you had been away only {seconds} s: "
                     "that does not count here"), seconds=gone)

    def _refuse_claim(self, link: Link) -> None:
        """Guest: the host claimed the game too soon: that is not a loss here. The host will not
        go on, so it counts as gone from now on (this side may claim in its turn); no more
        knocking."""
        self._say_too_soon(self.away_since)
        link.close("the game was claimed too soon")
        self.claim_refused = True
        self.away_since = self.now()
        self._note(EventKind.PEER_LOST, text=Text(N_("{name} will not go on with the game"),
                                                   {"name": self.peer_name}))

    # --- a lost link
    def _link_lost(self, reason: Text) -> None:
        was, self.connected = self.connected, False
        if was:
            self.away_since = self.now()
        self.waiting = False
        self.withdraw_questions()
        if self.match.over or not was:  # a bye said so already
            return
        self._note(EventKind.PEER_LOST, text=Text(N_("Connection lost: {reason}"),
                                                   {"reason": reason}))

    def _on_bye(self, message: dict) -> None:
        if self.connected:
            self.away_since = self.now()
        self.connected = False
        self.link.close("the other side left")
        self.withdraw_questions()
        if not self.match.over:
            self._note(EventKind.PEER_LOST, text=Text(N_("{name} left"), {"name": self.peer_name}))

    # --- a save, and a side taken up from it
    def save_extra(self) -> dict:
        """What a save keeps beside the record so this side can take the game up again."""
        return {"lan": {
            "host": self.is_host, "seat": self.seat, "token": self.token,
            "peer": self.peer_name, "salt": self.salt, "peer_commit": self.peer_commit,
            "address": list(self.address) if self.address else None,
            "port": self.server.port if self.server is not None else None,
            "peer_log": self.peer_log, "own_sent": [[p, v] for p, v in self.own_sent.items()],
            "peer_seen": self.peer_seen, "secrets": self.hidden.to_save(),
            "claim_refused": self.claim_refused, "saved_at": wall()}}

    def take_up(self, saved: dict) -> None:
        """This side's secrets and logs from its save (`save_extra`'s "lan" fields)."""
        self.salt = saved["salt"] if isinstance(saved.get("salt"), bytes) else self.salt
        commit = saved.get("peer_commit")
        self.peer_commit = commit if isinstance(commit, str) else None
        log = saved.get("peer_log")
        self.peer_log = [m for m in log if isinstance(m, dict)] if isinstance(log, list) else []
        sent = saved.get("own_sent")
        self.own_sent = {p: v for p, v in sent if type(p) is int} if isinstance(sent, list) \
            else {}
        self.peer_seen = saved["peer_seen"] if type(saved.get("peer_seen")) is int else 0
        self.claim_refused = saved.get("claim_refused") is True
        try:
            self.hidden.restore(saved.get("secrets") or {})
        except (KeyError, TypeError, ValueError, IndexError, RulesError, Violation) as exc:
            raise ValueError(f"the save's secrets do not hold ({type(exc).__name__})") from None

    @classmethod
    def from_welcome(cls, link: Link, welcome: dict, host_name: str = "the host") -> Any:
        """Guest: the session from the host's welcome; the host named as its seat is."""
        seat, seats = welcome["seat"], welcome.get("seats")
        if seat not in (0, 1):
            raise ConnectionError("the host's welcome gives no seat")
        if isinstance(seats, list) and len(seats) == 2 and isinstance(seats[1 - seat], dict):
            host_name = peer_name(seats[1 - seat].get("name"), host_name)
        placeholder = Match(welcome["game"], check_lan_options(welcome["game"],
                                                               welcome["options"]))
        make: Any = cls  # a Session: the mixin's own constructor is not the session's
        session = make(link, placeholder, seat, False, token=str(welcome.get("token", "")),
                       peer_name=host_name)
        session.rebuild(welcome)
        return session

    @classmethod
    def from_save(cls, match: Match, saved: Any, *, server: Host | None = None,
                  now: Callable[[], float] | None = None) -> Any:
        """A side taken up from its save (`save_extra`'s "lan" fields), waiting for the other
        side: a host with `server` listening again, a guest knocking at the address it had.
        ValueError if the save does not hold what it takes."""
        if not isinstance(saved, dict) or saved.get("seat") not in (0, 1):
            raise ValueError("the save holds no LAN seat")
        token = saved.get("token")
        if not isinstance(token, str) or not token:
            raise ValueError("the save holds no resume token")
        make: Any = cls  # a Session: the mixin's own constructor is not the session's
        session = make(Gone(), match, saved["seat"], saved.get("host") is True, token=token,
                       peer_name=peer_name(saved.get("peer"), "the other player"))
        if now is not None:
            session.now = now
        session.connected = False
        session.came_back = True
        session.take_up(saved)
        saved_at = saved.get("saved_at")
        if isinstance(saved_at, (int, float)) and not isinstance(saved_at, bool) \
                and math.isfinite(saved_at):
            # gone at most since the save was written (a window closed saves as it goes): a
            # claim the other side says it made is judged by that (an older save: believed)
            session.away_since = session.now() - max(0.0, wall() - saved_at)
        address = saved.get("address")
        if not session.is_host and isinstance(address, list) and len(address) == 2:
            session.address = (str(address[0]), int(address[1]))
        session.server = server
        # TRANSLATORS: a LAN game taken up from its save, the other side not linked yet
        session._note(EventKind.PEER_LOST, text=Text(N_("{name} is not back yet"),
                                                      {"name": session.peer_name}))
        return session
