"""Banqi over the LAN: the host alone holds the deal.

The guest's match is dealt from a seed of its own and learns each piece only as it is flipped
(the host's echo of a flip carries the `piece` shown). The host commits to its seed in the
welcome (and in a `commit` message on a rematch) and reveals it at the end; the guest checks
that every flip it was told agrees with that seed. Fog of war is not offered over the LAN yet:
the guest would need views, not moves.
"""

from __future__ import annotations

from typing import Any

from game.match import Match
from game.rules import RulesError
from net.secrets import Secrets, Side, commitment


class HostDeal(Secrets):
    """The host deals; the guest is told each flip and checks them against the seed at the end."""

    FIXED_OPTIONS = {"fog": (False, "fog of war is not offered over the LAN yet")}
    HOST_DEALS = True

    def __init__(self, side: Side):
        super().__init__(side)
        self.disclosed: list[tuple[int, str, str]] = []  # guest: (ply, square, piece) flips

    def echo(self, before: Any, mover: int, wire: Any) -> tuple[Any, dict]:
        m = self.side.match
        if len(wire) == 2:
            return wire, {"piece": m.state.board[m.rules.parse_square(wire)]}
        return wire, {}

    def receive_as_guest(self, move: Any, message: dict) -> Any:
        m = self.side.match
        piece = message.get("piece")
        if isinstance(move, str) and len(move) == 2:
            if not isinstance(piece, str):
                raise RulesError("a flip without its piece")
            m.states[-1] = m.rules.disclose(m.state, move, piece)
            self.disclosed.append((len(m.moves), move, piece))
        return move

    def replaying(self) -> None:
        self.disclosed = []

    def taken_back(self) -> None:
        self.disclosed = [d for d in self.disclosed if d[0] < len(self.side.match.moves)]

    def secret(self) -> dict | None:
        if self.side.is_host:
            return {"seed": self.side.match.seed, "salt": self.side.salt}
        return None

    def secret_expected(self) -> bool:
        return not self.side.is_host

    def check_reveal(self, salt: bytes, message: dict) -> str:
        side = self.side
        seed = message["seed"]
        if side.peer_commit is None or commitment(salt, seed) != side.peer_commit:
            return f"Warning: {side.peer_name}'s seed does not match its commitment"
        problem = self._check_flips(seed)
        return problem or "The host's deal checked: every flip came from its seed"

    def _check_flips(self, seed: int) -> str:
        match = self.side.match
        truth = Match(match.game_id, match.options, seed)
        for ply, move in enumerate(match.moves):
            if isinstance(move, str) and len(move) == 2:
                told = next((p for q, s, p in self.disclosed if q == ply), None)
                sq = truth.rules.parse_square(move)
                if truth.state.under[sq] != told:
                    return (f"Warning: the host's flip at {move} (move {ply + 1}) does not "
                            "come from the seed it committed to")
            truth.play(move)
        return ""


SECRETS = HostDeal
