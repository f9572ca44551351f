"""Planes over the LAN: a layout never leaves its owner before the end.

The owner sends "hidden" with a salted commitment at its setup, answers each shot at its
layout, and reveals the layout with the salt at the end, so the other side can check both the
commitment and every answer. The host shoots at the guest with a `shot` message and plays the
guest's `answer`; the guest's shots at the host are answered in the host's echo as [cell, answer].

The guest answers one shot per ply, only when the host is to shoot, and the host's echo of that
ply must be the cell answered (so no layout leaks through shots never played). The reveal at the
end is required: a missing or false one makes the game the owner's loss, "unverified".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from game.i18n import N_
from game.match import Match
from game.rules import RulesError
from net.secrets import SALT_BYTES, Secrets, Side, Verdict, Violation, commitment


def _rules(m: Match) -> Any:
    """The match's rules as the planes module (its layout checks are not in the contract)."""
    return m.rules


class PlaneLayouts(Secrets):
    """Each side's layout stays with it; shots are answered by the layout's owner."""

    FIELDS = {"shot": {"ply": int, "cell": int},
              "answer": {"ply": int, "cell": int, "answer": str}}
    UNPROVEN = N_("did not prove its layout")

    def __init__(self, side: Side):
        super().__init__(side)
        self.own_layout: Any = None  # the layout this side set up
        self.peer_answers: list[list] = []  # [cell, answer] the peer gave on its layout
        self.pending_shot: int | None = None  # host: a shot at the guest, not answered yet
        self.answered: dict[int, int] = {}  # guest: ply -> the cell of the one shot answered

    @classmethod
    def local_continuation(cls, match: Match) -> str:
        """A layout kept "hidden" in this file was never here: no one at this computer could
        answer a shot at it honestly, so the game cannot go on."""
        if not match.over and "hidden" in match.state.layouts:
            return N_("The other side's planes were never in this file: only its own computer "
                      "knew them, so no one here could answer a shot at them honestly.")
        return ""

    def own_echo(self, sent: Any, echo: Any) -> bool:
        if type(sent) is int and isinstance(echo, list) and len(echo) == 2:
            return echo[0] == sent  # a shot at the host comes back with its answer
        return echo == sent

    def submit(self, move: Any) -> bool:
        side, m = self.side, self.side.match
        ply = len(m.moves)
        if m.setup_pending():
            self.own_layout = m.rules.move_to_wire(_rules(m).check_setup(
                m.options["size"], m.options["planes"], move))
            commit = commitment(side.salt, self.own_layout)
            if side.is_host:
                side.play_local(self.own_layout)
                side.send_peer_move(ply, "hidden", commit=commit)
            else:
                side.send_own_move("hidden", commit=commit)
            return True
        if m.state.layouts[side.peer_seat] == "hidden":
            if type(move) is not int or move not in m.legal_moves():
                raise RulesError(f"{move!r} is not a cell you can shoot")
            if side.is_host:
                self.pending_shot = move
                side.send({"type": "shot", "ply": ply, "cell": move})
                side.waiting = True
            else:
                side.send_own_move(move)
            return True
        return False

    def receive_as_host(self, move: Any, message: dict) -> bool:
        side, m = self.side, self.side.match
        if not m.setup_pending():
            return False
        commit = message.get("commit")
        if move != "hidden" or not isinstance(commit, str) or len(commit) != 64:
            raise RulesError("a setup is sent as 'hidden' with its commitment")
        side.peer_commit = commit
        side.play_local("hidden")
        side.send_peer_move(len(m.moves) - 1, "hidden")
        return True

    def echo(self, before: Any, mover: int, wire: Any) -> tuple[Any, dict]:
        side = self.side
        if type(wire) is int and mover == side.peer_seat:
            wire = [wire, _rules(side.match).answer(before, side.seat, wire)]
        return wire, {}

    def receive_as_guest(self, move: Any, message: dict) -> Any:
        side, m = self.side, self.side.match
        if m.setup_pending() and move == "hidden":
            if m.to_move() == side.seat:
                move = self.own_layout
            else:
                commit = message.get("commit")
                if not isinstance(commit, str) or len(commit) != 64:
                    raise RulesError("a setup without its commitment")
                side.peer_commit = commit
        elif m.to_move() == side.seat:
            if isinstance(move, list):
                self.peer_answers.append(list(move))
        elif not m.setup_pending():  # the host's shot: the one this side answered at this ply
            if self.answered.get(len(m.moves)) != move:
                raise Violation(f"the host played a shot at {str(move)[:20]} that was not "
                                "the one answered")
        return move

    def shown_since(self, ply: int) -> bool:
        m = self.side.match  # every ply after the setup is a shot, answered when played
        return any(p >= ply for p in self.answered) or any(
            not m.rules.setup_pending(m.states[k]) for k in range(ply, len(m.moves)))

    def handlers(self) -> Mapping[str, Callable[[dict], None]]:
        return {"shot": self._on_shot, "answer": self._on_answer}

    def _on_shot(self, message: dict) -> None:
        """The host shoots at this guest's layout: answer it truthfully."""
        side, m, cell = self.side, self.side.match, message["cell"]
        if side.is_host or m.to_move() != side.peer_seat or m.setup_pending() \
                or message["ply"] != len(m.moves) or cell not in m.legal_moves():
            raise RulesError("a shot out of turn")
        if self.answered.setdefault(len(m.moves), cell) != cell:  # the same again: a resume
            raise RulesError("one shot is answered per turn")
        side.send({"type": "answer", "ply": message["ply"], "cell": cell,
                   "answer": _rules(m).answer(m.state, side.seat, cell)})

    def _on_answer(self, message: dict) -> None:
        side, m = self.side, self.side.match
        cell, answer = message["cell"], message["answer"]
        if not side.is_host or self.pending_shot is None or cell != self.pending_shot \
                or message["ply"] != len(m.moves) or answer not in _rules(m).ANSWERS:
            raise RulesError("an answer to no shot")
        self.pending_shot, side.waiting = None, False
        self.peer_answers.append([cell, answer])
        side.play_local([cell, answer])
        side.send_peer_move(len(m.moves) - 1, cell)

    def replaying(self) -> None:
        self.peer_answers = []

    def taken_back(self) -> None:
        self.peer_answers = _answers_in(self.side.match)
        self.pending_shot = None
        plies = len(self.side.match.moves)
        self.answered = {p: c for p, c in self.answered.items() if p < plies}

    def resumed(self) -> None:
        side = self.side
        if self.pending_shot is not None:  # asked: the guest may have answered it
            side.send({"type": "shot", "ply": len(side.match.moves), "cell": self.pending_shot})
            side.waiting = True

    def to_save(self) -> dict:
        return {"own_layout": self.own_layout, "peer_answers": self.peer_answers,
                "answered": [[p, c] for p, c in self.answered.items()],
                "pending_shot": self.pending_shot}

    def restore(self, saved: dict) -> None:
        self.own_layout = saved.get("own_layout")
        self.peer_answers = [list(a) for a in saved.get("peer_answers", [])]
        self.answered = {int(p): int(c) for p, c in saved.get("answered", [])}
        shot = saved.get("pending_shot")
        self.pending_shot = shot if type(shot) is int else None

    def secret(self) -> dict | None:
        if self.own_layout is not None:
            return {"layout": self.own_layout, "salt": self.side.salt}
        return None

    def secret_expected(self) -> bool:
        return self.side.peer_commit is not None

    def check_reveal(self, salt: bytes, message: dict) -> Verdict:
        side, m = self.side, self.side.match
        layout = message.get("layout")
        if not isinstance(salt, bytes) or len(salt) != SALT_BYTES:
            # a short salt lets the layout be guessed from the commitment; a long one lets
            # the bytes be split differently between salt and layout
            size = len(salt) if isinstance(salt, bytes) else 0
            return Verdict(N_("Warning: {name}'s salt has {size} bytes, not {bytes}; "
                              "unverified, the game is lost for it"), False,
                           {"name": side.peer_name, "size": size, "bytes": SALT_BYTES})
        if side.peer_commit is None or commitment(salt, layout) != side.peer_commit:
            return Verdict(N_("Warning: {name}'s layout does not match its commitment; "
                              "unverified, the game is lost for it"), False,
                           {"name": side.peer_name})
        try:
            problem = _rules(m).check_layout(m.options["size"], m.options["planes"], layout,
                                           self.peer_answers)
        except (RulesError, TypeError, ValueError, KeyError, IndexError) as exc:
            problem = f"the layout is not one ({exc})"
        if problem:
            return Verdict(N_("Warning: {name} answered falsely: {problem}; unverified, the "
                              "game is lost for it"), False,
                           {"name": side.peer_name, "problem": problem})
        return Verdict(N_("{name}'s layout checked: it matches every answer"), True,
                       {"name": side.peer_name})

    def proven(self, message: dict) -> None:
        """The peer's layout takes the place of "hidden", and each shot at it is played as its
        cell (the layout now answers, as it did): the record replays to both layouts."""
        m = self.side.match
        record = m.to_record()
        record["moves"] = [message["layout"] if w == "hidden" else w[0] if _answered(w) else w
                           for w in m.moves]
        try:
            whole = Match.from_record(record)
        except RulesError:  # checked against every answer, so never: keep the record as it was
            return
        m.moves, m.states = whole.moves, whole.states


def _answered(wire: Any) -> bool:
    """A shot at a layout not known here, played with its owner's answer: [cell, answer]."""
    return isinstance(wire, list) and len(wire) == 2 and isinstance(wire[1], str)


def _answers_in(m: Match) -> list[list]:
    return [list(w) for w in m.moves if _answered(w)]


SECRETS = PlaneLayouts
