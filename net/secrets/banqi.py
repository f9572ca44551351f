"""Banqi over the LAN: a deal that neither program knows, shuffled by both (mental poker).

Commutative encryption (SRA / Pohlig-Hellman) over the 2048-bit safe prime p = 2q + 1 of
RFC 3526 (group 14). Each side has a key e (odd, under q, so invertible mod p - 1) and its
inverse d; E(x) = x^e mod p, and the two sides' encryptions commute.

1. The 32 pieces, sorted, are 32 cards; card t is the quadratic residue H(t)^2 mod p, H a
   SHA-256 expansion (squares stay in the order-q subgroup, so no residue symbol leaks, and the
   cards have no multiplicative relation another side could test for).
2. Host: encrypts every card with its key, shuffles, sends the 32 values in the welcome
   (`deal`). Guest: encrypts each again with its key, shuffles, sends them back
   (`{"type": "deal", "cards"}`): value i lies face down on square i. Neither side knows the
   other's shuffle, so neither knows any square's card.
3. A flip at square s is opened by both keys: each side sends its part, D[s] with its own key
   taken off (the guest's with its own flip, or in answer to the host's `{"type": "flip"}`;
   the host's in its echo of the flip, with the `piece` it opened). The other's part is the
   card under this side's key alone, which a table of the 32 cards so encrypted opens. Each
   checks that the card is one still face down and that both agree.
4. At the end both reveal their key e; each checks the other's shuffle pass (as a set) and
   every part the other sent (part^e == D[s]). A key that does not come, or does not check,
   makes the game the liar's loss.

Both matches hold a dummy deal from their own seed; each flip discloses the real piece into it.
Fog of war is not offered over the LAN yet: the guest would need views, not moves.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from game.rules import RulesError
from net.secrets import Secrets, Side, Verdict, Violation

# RFC 3526, 2048-bit MODP group (group 14): a safe prime.
P = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A0879"
    "8E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B"
    "0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA4836"
    "1C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804"
    "F1746C08CA18217C32905E462E36CE3BE39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6"
    "955817183995497CEA956AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF", 16)
Q = (P - 1) // 2
SIZE = 256  # bytes of a value mod P on the wire
CARDS = 32
KEY_BITS = 256  # short encryption exponents keep the shuffle fast; d is full size


def _card(t: int) -> int:
    """Card t as a quadratic residue mod P with no relation to the other cards."""
    stream = b"".join(hashlib.sha256(b"paper-arcade banqi card %d %d" % (t, i)).digest()
                      for i in range(SIZE // 32 + 1))
    return pow(int.from_bytes(stream, "big") % P, 2, P)


_CARDS = [_card(t) for t in range(CARDS)]
_CARD_OF = {c: t for t, c in enumerate(_CARDS)}


def _residue(x: int) -> bool:
    """Whether x is a quadratic residue mod P (Jacobi symbol, P prime)."""
    a, n, sign = x % P, P, 1
    while a:
        while a % 2 == 0:
            a //= 2
            if n % 8 in (3, 5):
                sign = -sign
        a, n = n, a
        if a % 4 == 3 and n % 4 == 3:
            sign = -sign
        a %= n
    return n == 1 and sign == 1


def _new_key() -> int:
    while True:
        e = secrets.randbits(KEY_BITS) | 1
        if 1 < e < Q:
            return e


def _encode(x: int) -> bytes:
    return x.to_bytes(SIZE, "big")


def _values(raw: Any, what: str) -> list[int]:
    """32 distinct residues mod P from the wire; Violation if they are anything else."""
    if not isinstance(raw, list) or len(raw) != CARDS:
        raise Violation(f"{what} is not {CARDS} values")
    out = []
    for v in raw:
        if not isinstance(v, bytes) or len(v) != SIZE:
            raise Violation(f"{what} holds a value that is not {SIZE} bytes")
        x = int.from_bytes(v, "big")
        if not 1 < x < P - 1 or not _residue(x):
            raise Violation(f"{what} holds a value outside the cards' group")
        out.append(x)
    if len(set(out)) != CARDS:
        raise Violation(f"{what} holds the same value twice")
    return out


def _part(raw: Any) -> int:
    if not isinstance(raw, bytes) or len(raw) != SIZE:
        raise Violation("a flip's part is not a value")
    x = int.from_bytes(raw, "big")
    if not 1 < x < P - 1:
        raise Violation("a flip's part is outside the group")
    return x


def _flip(move: Any) -> bool:
    return isinstance(move, str) and len(move) == 2


class SharedDeal(Secrets):
    """Both sides shuffle and encrypt the deal; each flip is opened by both keys."""

    FIXED_OPTIONS = {"fog": (False, "fog of war is not offered over the LAN yet")}
    OWN_SEEDS = True
    FIELDS = {"deal": {"cards": list}, "flip": {"ply": int, "square": str},
              "part": {"ply": int, "square": str, "part": bytes}}
    UNPROVEN = "did not prove its part of the deal (its key)"

    def __init__(self, side: Side):
        super().__init__(side)
        self.key = _new_key()
        self.inverse = pow(self.key, -1, P - 1)
        self.first: list[int] | None = None  # the host's pass: its encrypted, shuffled cards
        self.deck: list[int] | None = None  # both passes: the value on each square
        self.order: list[int] = []  # guest: square -> the index in `first` it shuffled there
        self.table: dict[int, int] = {}  # card t encrypted with this side's key only -> t
        self.pieces: list[str] = []  # card t -> its piece (the 32 pieces sorted)
        self.parts: dict[int, int] = {}  # square -> the peer's part for it
        self.opened: dict[int, tuple[int, int]] = {}  # square -> (ply, card) shown there
        self.pending_flip: str | None = None  # host: a flip asked of the guest
        self.answered: dict[int, str] = {}  # guest: ply -> the square of the one flip opened
        if side.is_host:
            cards = [pow(c, self.key, P) for c in _CARDS]
            self.table = {x: t for t, x in enumerate(cards)}
            random.SystemRandom().shuffle(cards)
            self.first = cards

    # --- the deal
    def ready(self) -> bool:
        return self.deck is not None

    def welcome_fields(self) -> dict:
        fields: dict[str, Any] = {"deal": [_encode(x) for x in self.first or []]}
        if self.deck is not None:
            fields["cards"] = [_encode(x) for x in self.deck]
        return fields

    def welcomed(self, message: dict) -> None:
        first = _values(message.get("deal"), "the host's deal")
        if self.first == first and self.deck is not None:  # a resume: the deal stands
            if message.get("cards") is not None and \
                    _values(message.get("cards"), "the host's cards") != self.deck:
                raise ConnectionError("the host's cards are not the ones this side dealt")
        else:
            self.first, self.order = first, list(range(CARDS))
            random.SystemRandom().shuffle(self.order)
            self.deck = [pow(first[j], self.key, P) for j in self.order]
            self.table = {pow(c, self.key, P): t for t, c in enumerate(_CARDS)}
        if message.get("cards") is None:
            self.side.send({"type": "deal", "cards": [_encode(x) for x in self.deck]})

    def handlers(self) -> Mapping[str, Callable[[dict], None]]:
        return {"deal": self._on_deal, "flip": self._on_flip, "part": self._on_part}

    def _on_deal(self, message: dict) -> None:
        if not self.side.is_host or self.deck is not None:
            raise RulesError("no deal is due")
        self.deck = _values(message["cards"], "the guest's cards")

    # --- flips
    def _open(self, square: str, part: int, piece: Any = None) -> str:
        """The piece under `square`, from the peer's part and this side's key; disclosed."""
        m = self.side.match
        sq = m.rules.parse_square(square)
        card = self.table.get(part)  # the peer's part is the card under this side's key alone
        if card is None:
            raise Violation(f"the flip at {square} does not open to a card")
        for other, (_, shown) in self.opened.items():
            if shown == card and other != sq:
                raise Violation(f"the flip at {square} opens a card already shown")
        if sq in self.parts and self.parts[sq] != part:
            raise Violation(f"a second, different part for {square}")
        if not self.pieces:
            self.pieces = sorted(m.rules.new_game(m.options, 0).under)
        shown = self.pieces[card]
        if piece is not None and piece != shown:
            raise Violation(f"the two sides opened different pieces at {square}")
        try:
            m.states[-1] = m.rules.disclose(m.state, square, shown)
        except RulesError as exc:
            raise Violation(str(exc)) from None
        self.parts[sq] = part
        self.opened[sq] = (len(m.moves), card)
        return shown

    def _my_part(self, square: str) -> bytes:
        """D[square] with this side's key taken off: the guest knows it from its shuffle."""
        assert self.first is not None and self.deck is not None
        sq = self.side.match.rules.parse_square(square)
        if not self.side.is_host:
            return _encode(self.first[self.order[sq]])
        return _encode(pow(self.deck[sq], self.inverse, P))

    def submit(self, move: Any) -> bool:
        side, m = self.side, self.side.match
        if not _flip(move):
            return False
        if move not in m.legal_moves():
            raise RulesError(f"{move!r} is not legal here")
        if side.is_host:
            self.pending_flip = move
            side.send({"type": "flip", "ply": len(m.moves), "square": move})
            side.waiting = True
        else:
            side.send_own_move(move, part=self._my_part(move))
        return True

    def _on_flip(self, message: dict) -> None:
        """The host flips: give this side's part of that one square, once per ply."""
        side, m, square = self.side, self.side.match, message["square"]
        if side.is_host or m.to_move() != side.peer_seat or message["ply"] != len(m.moves) \
                or square not in m.legal_moves():
            raise RulesError("a flip out of turn")
        if self.answered.setdefault(len(m.moves), square) != square:  # the same: a resume
            raise RulesError("one flip is opened per turn")
        side.send({"type": "part", "ply": message["ply"], "square": square,
                   "part": self._my_part(square)})

    def _on_part(self, message: dict) -> None:
        side, m = self.side, self.side.match
        if not side.is_host or self.pending_flip is None or message["square"] != \
                self.pending_flip or message["ply"] != len(m.moves):
            raise RulesError("a part for no flip")
        self._open(self.pending_flip, _part(message["part"]))
        square, self.pending_flip, side.waiting = self.pending_flip, None, False
        side.host_play(square)

    def receive_as_host(self, move: Any, message: dict) -> bool:
        if _flip(move):
            if move not in self.side.match.legal_moves():
                raise RulesError(f"{move!r} is not legal here")
            self._open(move, _part(message.get("part")))
        return False

    def echo(self, before: Any, mover: int, wire: Any) -> tuple[Any, dict]:
        if _flip(wire):
            m = self.side.match
            return wire, {"piece": m.state.board[m.rules.parse_square(wire)],
                          "part": self._my_part(wire)}
        return wire, {}

    def receive_as_guest(self, move: Any, message: dict) -> Any:
        side, m = self.side, self.side.match
        if _flip(move):
            if m.to_move() == side.peer_seat and self.answered.get(len(m.moves)) != move:
                raise Violation(f"the host flipped {move} without this side's part")
            self._open(move, _part(message.get("part")), message.get("piece"))
        return move

    def replaying(self) -> None:
        self.opened = {}

    def taken_back(self) -> None:
        plies = len(self.side.match.moves)
        self.opened = {sq: v for sq, v in self.opened.items() if v[0] < plies}
        self.answered = {p: s for p, s in self.answered.items() if p < plies}
        self.pending_flip = None

    def resumed(self) -> None:
        self.pending_flip = None

    # --- the end: keys out, everything checked
    def secret(self) -> dict | None:
        return {"key": _encode(self.key)}

    def secret_expected(self) -> bool:
        return self.first is not None and self.deck is not None

    def check_reveal(self, salt: bytes, message: dict) -> Verdict:
        name = self.side.peer_name
        problem = self._problem(message.get("key"))
        if problem:
            return Verdict(f"Warning: {name} {problem}; unverified, the game is lost for it",
                           ok=False)
        return Verdict(f"{name}'s part of the deal checked: every flip came from the shuffle")

    def _problem(self, raw: Any) -> str:
        if not isinstance(raw, bytes) or len(raw) != SIZE:
            return "revealed no key"
        key = int.from_bytes(raw, "big")
        if not 1 < key < Q or key % 2 == 0:
            return "revealed a key that is no key"
        assert self.first is not None and self.deck is not None
        if self.side.is_host:
            passed = sorted(pow(x, key, P) for x in self.first)
            if passed != sorted(self.deck):
                return "dealt cards that are not the host's, shuffled and encrypted"
        elif sorted(pow(c, key, P) for c in _CARDS) != sorted(self.first):
            return "dealt cards that are not the 32 pieces, shuffled and encrypted"
        for sq, part in self.parts.items():
            if pow(part, key, P) != self.deck[sq]:
                return f"opened a flip (square {sq}) with a part that is not its key's"
        return ""


SECRETS = SharedDeal
