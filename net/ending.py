"""The end of a LAN game, seen from one side: where the record ends when two ends cross on the
wire, the reveal of this side's secret, and the verdict on the peer's.

An end a peer sends (a resignation, an accepted draw) carries the ply it was made at, and both
sides end the record at one ply (`peer_ended`):
- The peer ended at an earlier ply than this side has: the plies after it crossed the end on the
  wire. The host drops them if they are its own (a guest move after that ply would prove the
  guest saw more: then the end stands where the host is). The guest plays only the host's
  echoes, so it never has plies the host has not seen.
- The peer ended at a later ply: this side took back a move the peer never heard of (it allowed
  a takeback whose answer crossed the end): the position before the takeback comes back.
- Both sides ended at the same ply (both resigned, a resignation crossed a draw): the host's end
  stands on both sides.
An honest crossing is thus never a violation, and both records agree.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from game.i18n import N_, Text
from game.match import Ending, Match
from game.rules import Termination
from net.peer_text import peer_line
from net.secrets import Secrets, Verdict
from players.events import Event, EventKind

REVEAL_WAIT = 10.0  # how long after the end the peer has to reveal its secret
CROSS_WAIT = 2.0  # how long after the end an end the peer sent at the same time may still come


def snapshot(*objects: Any) -> list[dict]:
    """The attributes of each object, their lists, dicts and sets copied (a takeback's undo)."""
    return [{k: v.copy() if isinstance(v, (list, dict, set)) else v for k, v in vars(o).items()}
            for o in objects]


class Ends:
    """The end of the game and the reveals (a part of net.session.Session)."""

    match: Match
    seat: int
    peer_seat: int
    is_host: bool
    peer_name: str
    hidden: Secrets
    connected: bool
    closed: bool
    notes: list[Event]
    now: Callable[[], float]
    peer_seen: int  # host: the most plies the guest has shown it saw
    undone: tuple[int, Match, list[dict]] | None  # a takeback this side allowed, unproven
    unsent_end: dict | None
    claim_refused: bool  # guest: the host's claim came too soon (net.rejoin)
    claim_told: bool  # guest: the host has heard of this side's claim

    if TYPE_CHECKING:  # what the session provides
        def send(self, message: dict) -> bool: ...
        def _note(self, kind: EventKind, **fields: Any) -> None: ...
        def _say(self, key: str, **params: Any) -> None: ...
        def _dropped(self, plies: int) -> None: ...
        def claimed(self) -> bool: ...

    def _init_end(self) -> None:
        self.ended_at: float | None = None  # when this side saw the end (the reveal's clock)
        self.linked_at = float("-inf")  # the link's latest return: the deadline runs from it
        self.revealed = False
        self.verdict = Verdict("")  # the check of the peer's revealed secret

    # --- two ends that crossed
    def peer_ended(self, ply: int, ending: Ending) -> None:
        """The peer ended the game at `ply`: end this side's record there too."""
        m, here = self.match, len(self.match.moves)
        undone = self.undone
        if ply > here and undone is not None and undone[:2] == (ply, m):
            self._restore(undone[2])
            here = ply
        elif ply < here and self.is_host and ply >= self.peer_seen:
            m.undo(here - ply)  # only this side's own plies, which crossed the end
            self._dropped(ply)
            here = ply
        if m.over:
            own = m.ending is not None and ply == here and not self.is_host
            if not own:
                return  # the end this side has stands (the rules' end, or the host's)
            m.ending = None
        m.ending = ending
        self._note(EventKind.REFRESH)
        self.after_move()

    def kept(self) -> list[dict]:
        """What a takeback changes, kept so a crossing end can bring it back."""
        return snapshot(self.match, self.hidden, self)

    def _restore(self, saved: list[dict]) -> None:
        for obj, attrs in zip((self.match, self.hidden), saved):
            vars(obj).clear()
            vars(obj).update(attrs)
        self.peer_log, self.own_sent = saved[2]["peer_log"], saved[2]["own_sent"]
        self.undone = None

    peer_log: list[dict]
    own_sent: dict[int, Any]

    def _on_resign(self, message: dict) -> None:
        detail = peer_line(message.get("detail"))  # as the resigner's own record has it
        self.peer_ended(message["ply"], Ending(self.peer_seat, Termination.RESIGNATION, detail))

    # --- the reveals
    def after_move(self) -> None:
        """Once the game is over, this side reveals its secret (once)."""
        if self.match.over and not self.revealed:
            secret = self.hidden.secret()
            self.revealed = secret is None or self.send({"type": "reveal", **secret})

    def _owed(self) -> bool:
        """Whether the two sides still owe each other something: the game, an end the peer
        was not told, a reveal either way (a lost link is worth taking up again). Once this
        side claimed the game, only the host's hearing of it (a guest's knock says so; taken up
        again, the game would reopen); nothing once it refused the host's claim (the host will
        not go on)."""
        if self.claimed():
            return not self.is_host and not self.claim_told
        if self.claim_refused:
            return False
        return not self.match.over or self.unsent_end is not None or not self.revealed or \
            self.reveal_awaited()

    def reveal_awaited(self) -> bool:
        """The peer has a secret to reveal and no verdict on it has been taken yet."""
        return self.secret_expected() and not self.verdict

    def settled(self) -> bool:
        """The record is final: no reveal from the peer is still awaited (a lost link does not
        end the wait: the verdict can still change the result), and an end that crossed this
        side's on the wire has had time to come (or the link is gone). A replay
        or a statistic taken before then could miss what they bring (a fog game's moves, the
        host's resignation that stands over a draw agreed here)."""
        if self.closed:
            return True
        if self.reveal_awaited():
            return False  # even with the link gone: it comes on a resume, or close() judges it
        return bool(self.verdict) or not self.connected or (
            self.ended_at is not None and self.now() - self.ended_at >= CROSS_WAIT)

    def secret_expected(self) -> bool:
        """Whether the peer has a secret to reveal at the end."""
        return self.hidden.secret_expected()

    def check_reveal(self, message: dict) -> Verdict:
        """The one-line verdict on the peer's revealed secret."""
        salt = message.get("salt")
        return self.hidden.check_reveal(salt if isinstance(salt, bytes) else b"", message)

    def _on_reveal(self, message: dict) -> None:
        try:
            verdict = self.check_reveal(message)
        except Exception as exc:  # a reveal that does not even parse proves nothing
            verdict = Verdict(N_("unverified: {name}'s reveal does not parse ({error})"), False,
                              {"name": self.peer_name, "error": type(exc).__name__})
        if verdict.ok:
            self.hidden.proven(message)
            self._note(EventKind.REFRESH)
        self._settle(verdict)

    def check_reveal_due(self) -> None:
        """The end: the peer's secret must come, and in time while the link is up (a peer that
        is away may come back with it); if not, its result is void."""
        if self.ended_at is None:
            self.ended_at = self.now()
        if self.closed or not self.reveal_awaited() or not self.connected:
            return
        if self.now() - max(self.ended_at, self.linked_at) > REVEAL_WAIT:
            self.unproven()

    def unproven(self) -> None:
        """The peer's secret did not come: its result is void ("unverified")."""
        self._settle(Verdict(N_("unverified: {name} {unproven}"), False,
                             {"name": self.peer_name, "unproven": Text(self.hidden.UNPROVEN)}))

    def _settle(self, verdict: Verdict) -> None:
        """Take the verdict on the peer's secret; a failed one makes the game the peer's loss."""
        self.verdict = verdict
        self._note(EventKind.NOTICE, text=verdict.said)
        if not verdict.ok:
            self.match.ending = Ending(self.peer_seat, Termination.FAILURE, str(verdict)[:200],
                                       verdict.said)
            self._note(EventKind.REFRESH)


def clock() -> float:
    """The session's default clock."""
    return time.monotonic()
