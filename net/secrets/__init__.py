"""What a LAN game keeps hidden, behind the one small interface the session calls.

The session (net/session.py) names no game: whatever a game hides from the other side (a plane
layout, a deal of face-down pieces) is handled by that game's module here, net/secrets/<id>.py,
which declares `SECRETS`, a subclass of `Secrets`. A game with nothing to hide has no module of
its own and gets `Open` (net/secrets/open.py). The registry finds the module:
`registry.get(game).lan_module()`.

One `Secrets` object lives beside each session and holds that side's hidden bookkeeping; a
rematch gets a fresh one. Its hooks may send and play through the session (`Side`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Protocol

import msgpack

from game.i18n import N_, Text
from game.match import Match, Seat


class Violation(Exception):
    """The peer sent what no honest program sends (a lie found out, a move it may not make):
    the session ends the link with this reason."""


class Verdict(str):
    """The one-line verdict on a peer's revealed secret; `ok` False when it did not check.
    The string is its English; `said` is the same as a Text (a catalogue key and its values)
    for the screen, in the player's language."""

    ok: bool
    said: Text

    def __new__(cls, key: str, ok: bool = True, params: dict[str, Any] | None = None) -> Verdict:
        said = Text(key, dict(params or {}))
        verdict = super().__new__(cls, said.english() if key else "")
        verdict.ok, verdict.said = ok, said
        return verdict


SALT_BYTES = 16  # a commitment's salt: random, and of this length exactly


def commitment(salt: bytes, secret: Any) -> str:
    """SHA-256 of the salt and the secret's msgpack bytes, in hex."""
    return hashlib.sha256(salt + msgpack.packb(secret, use_bin_type=True)).hexdigest()


class Side(Protocol):
    """What the hooks may use of their session (net.session.Session)."""

    match: Match
    seat: int
    peer_seat: int
    is_host: bool
    peer_name: str
    salt: bytes  # the salt of this side's commitment
    peer_commit: str | None  # the commitment the peer sent, if any
    waiting: bool  # a local move is out and its echo (or answer) has not come

    def send(self, message: dict) -> bool:
        """Send a message to the peer; False if it could not go (the link is down)."""

    def play_local(self, move: Any) -> None:
        """Play a move on this side's match."""

    def send_peer_move(self, ply: int, move: Any, **extra: Any) -> None:
        """Host: tell the guest ply `ply` as it may see it."""

    def send_own_move(self, move: Any, **extra: Any) -> None:
        """Guest: send this side's move to the host and wait for its echo."""

    def host_play(self, move: Any) -> None:
        """Host: play a move and tell the guest what it may see of it."""


class Secrets:
    """The hooks the session calls, each with its open-information default (nothing hidden)."""

    # Options the LAN holds to one value: name -> (that value, why no other is offered).
    FIXED_OPTIONS: ClassVar[Mapping[str, tuple[Any, str]]] = {}
    # The seed decides something the guest may not know: the guest gets a seed of its own.
    OWN_SEEDS: ClassVar[bool] = False
    # The game's own message types: type -> {field: type}; the session checks them.
    FIELDS: ClassVar[Mapping[str, Mapping[str, type | tuple[type, ...]]]] = {}
    # What a peer that does not prove its secret at the end failed to do ("unverified: ...").
    UNPROVEN: ClassVar[str] = N_("did not prove its secret")

    def __init__(self, side: Side):
        self.side = side

    @classmethod
    def guest_match(cls, game: str, options: dict, seed: int, seats: list[Seat],
                    seat: int) -> Match:
        """Guest: the match it keeps (a game that hides the host's moves keeps views)."""
        return Match(game, options, seed, seats)

    @classmethod
    def local_continuation(cls, match: Match) -> str:
        """A saved LAN game goes on at one computer: prepare `match` for it, or say why it
        cannot go on honestly ("" when it can)."""
        return ""

    def ready(self) -> bool:
        """Whether this side may move yet (False while, e.g., a deal is being shuffled)."""
        return True

    def welcome_fields(self) -> dict:
        """Host: extra fields of the welcome and of a rematch's new_game."""
        return {}

    def welcomed(self, message: dict) -> None:
        """Guest: the welcome (or a rematch's new_game) came; take its extra fields. It may
        send; the move list is played after it."""

    def own_echo(self, sent: Any, echo: Any) -> bool:
        """Guest: whether the host's echo at this side's turn is the move this side sent."""
        return echo == sent

    def shown_since(self, ply: int) -> bool:
        """Whether a ply from `ply` on showed what was hidden (a flip's piece, a shot's answer;
        a part or an answer given counts before the host's echo of it). Nothing can hide it
        again, so no takeback may go back past it."""
        return False

    def submit(self, move: Any) -> bool:
        """Send a local move that must be kept back; False: send it as it is."""
        return False

    def receive_as_host(self, move: Any, message: dict) -> bool:
        """Host: take a guest's move that keeps something back; False: play it as it is."""
        return False

    def echo(self, before: Any, mover: int, wire: Any) -> tuple[Any, dict]:
        """Host: the ply just played (by `mover`, from state `before`) as the guest may see it,
        and extra message fields (e.g. what a flip shows)."""
        return wire, {}

    def receive_as_guest(self, move: Any, message: dict) -> Any:
        """Guest: the host's echo of a ply, as the move to play here (taking in what it shows)."""
        return move

    def handlers(self) -> Mapping[str, Callable[[dict], None]]:
        """Message types of this game's own (e.g. a shot and its answer): type -> handler."""
        return {}

    def replaying(self) -> None:
        """Guest: the move list is about to be played again from a welcome; keep own secrets."""

    def taken_back(self) -> None:
        """Both sides went back some plies: forget what the plies taken back told."""

    def resumed(self) -> None:
        """The link is new (and, on the host, the guest welcomed): a question to the peer
        still in flight is asked again; it stands (the peer may have answered it)."""

    def to_save(self) -> dict:
        """What a save keeps of this side's secrets, so the game can go on after a restart."""
        return {}

    def restore(self, saved: dict) -> None:
        """This side's secrets from its save (`to_save`); KeyError or ValueError if they do
        not hold."""

    def secret(self) -> dict | None:
        """The fields of this side's `reveal` message at the end; None: nothing to reveal."""
        return None

    def secret_expected(self) -> bool:
        """Whether the peer has a secret to reveal at the end."""
        return False

    def check_reveal(self, salt: bytes, message: dict) -> Verdict:
        """The verdict on the peer's revealed secret (ok False if it does not check)."""
        return Verdict("")

    def proven(self, message: dict) -> None:
        """The peer's reveal checked: take in what it shows, so this side's record (its replay,
        its review) holds the whole game."""


class Open(Secrets):
    """A game with no secrets: every move crosses as it is and nothing is revealed."""
