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

Both matches hold a dummy deal from their own seed; each flip discloses the real piece into it
as a recorded reseed, so the match's own record (a save, a replay) plays back to the pieces both
sides opened, and a saved game can go on at one computer once its face-down pieces are dealt
anew (`local_continuation`).

Fog of war: the host referees with the whole game; the guest keeps a `FogMatch`, the views the
host sends it (each echo carries `view`, the rules' own view for the guest's seat, and a host
move out of the guest's sight crosses as "~"). The guest checks each view against what it knows
(its own pieces, the face-down squares, its own move's result, a flip's piece) and, at the end,
the whole move list the host then shows (in the echo of the last ply, or in its `reveal`):
replayed with the pieces both sides opened, it must lead to every view the guest was sent.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from game.i18n import N_, Text
from game.match import Match, Seat
from game.rules import Outcome, RulesError
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



def _rules(m: Match) -> Any:
    """The match's rules as Banqi's own module (its board helpers are not in the contract)."""
    return m.rules

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


UNSEEN = "~"  # a host move the fog hides from the guest
RESEED_TRIES = 1 << 16  # each try lands the piece with a chance of at least 1/32


def disclose(m: Match, square: str, piece: str) -> None:
    """Put `piece` under the face-down `square` as a reseed of the match's hidden chance, so
    its record plays back to it; RulesError if no such piece is left face down."""
    rules = _rules(m)
    sq, state = rules.parse_square(square), m.state
    if state.board[sq] != "?":
        raise RulesError(f"{square} is not face down")
    if piece not in state.under:
        raise RulesError(f"no {piece!r} is left face down")
    for seed in range(RESEED_TRIES):
        dealt = rules.reseed(state, seed)
        if dealt.under[sq] == piece:
            m.reseeds.append((len(m.moves), seed))
            m.states[-1] = dealt
            return
    m.states[-1] = rules.disclose(state, square, piece)  # (31/32)**65536: never in practice


def state_from_view(rules: Any, view: dict) -> Any:
    """A state holding exactly what a fogged view shows (a dummy deal under the face-down
    squares, "~" where the fog lies)."""
    board = rules.parse_board(view["board"])
    pool = [p for p, n in sorted(view["hidden"].items()) for _ in range(n)]
    under = [""] * 32
    for sq in range(32):
        if board[sq] == "?":
            under[sq] = pool.pop()
    turn = view["to_move"]
    return rules.State(board, tuple(under), tuple(view["colors"]), turn, view["quiet_plies"],
                       ((board, turn),), view["variant"], view["fog"], view["last"])


_VIEW_KEYS = {"board": str, "to_move": int, "colors": list, "hidden": dict,
              "quiet_plies": int, "variant": str, "fog": bool, "captured": list, "last": str}


class FogMatch(Match):
    """A fog-of-war game as the guest knows it: each ply's view from the host, never the
    state. Once the host shows the whole game at the end, it is a plain match (`whole`)."""

    def __init__(self, game_id: str, options: dict | None, seed: int | None,
                 seats: list[Seat] | None, seat: int):
        super().__init__(game_id, options, seed, seats)
        self.seat = seat
        self.views: list[dict] = [self.rules.view(self.states[0], seat)]
        self.coming: dict | None = None  # the view the ply being played leads to
        self.then: Match | None = None  # the whole game, checked, shown with the last ply
        self.whole = False  # the host showed the whole game: every state is real

    # --- what the guest knows
    def view(self, seat: int | None) -> dict:
        return super().view(seat) if self.whole else dict(self.views[-1])

    def mover_at(self, ply: int) -> int | None:
        if self.whole:
            return super().mover_at(ply)
        return self.views[ply]["to_move"]  # a stand-in state may read as a game over

    def view_at(self, ply: int, seat: int | None) -> dict:
        if self.whole:
            return super().view_at(ply, seat)
        if seat != self.seat:
            raise ValueError("a fog guest knows only its own views")
        return dict(self.views[ply])

    def record_complete(self) -> bool:
        return self.whole

    def to_move(self) -> int | None:
        if self.whole:
            return super().to_move()
        return None if self.over else self.views[-1]["to_move"]

    def legal_moves(self) -> list:
        if self.whole:
            return super().legal_moves()
        if self.over or self.to_move() != self.seat:
            return []
        return self.rules.legal_moves_from_view(self.views[-1], self.options)

    def outcome(self) -> Outcome | None:
        if self.whole or self.ending is not None:
            return super().outcome()
        return None  # a rules end comes with the whole game

    def score(self) -> tuple[int, ...]:
        if self.whole:
            return super().score()
        v = self.views[-1]
        gone = Counter(_rules(self).colour_of(p) for p in v["captured"])
        return tuple(16 if c is None else 16 - gone[c] for c in v["colors"])

    # --- plies as the host shows them
    def play(self, move: Any) -> Any:
        if self.whole:
            return super().play(move)
        view, self.coming = self.coming, None
        if view is None:
            raise RulesError("a ply under the fog comes with its view")
        self.moves.append(move)
        self.states.append(state_from_view(self.rules, view))
        self.views.append(view)
        if self.then is not None:
            whole, self.then = self.then, None
            self.adopt(whole)
        return self.states[-1]

    def undo(self, count: int = 1) -> int:
        if self.whole:
            return super().undo(count)
        count = min(count, len(self.moves))
        if count <= 0:
            return 0
        self.ending = None
        del self.moves[-count:], self.states[-count:], self.views[-count:]
        self.reseeds = [(p, s) for p, s in self.reseeds if p <= len(self.moves)]
        return count

    def back_for(self, seat: int) -> int:
        if self.whole:
            return super().back_for(seat)
        for back in range(1, len(self.moves) + 1):
            if self.views[-1 - back]["to_move"] == seat:
                return back
        return 0

    def adopt(self, whole: Match) -> None:
        """The whole game, checked: from now on this is a plain match."""
        self.moves, self.states, self.reseeds = whole.moves, whole.states, whole.reseeds
        self.whole = True


class SharedDeal(Secrets):
    """Both sides shuffle and encrypt the deal; each flip is opened by both keys."""

    OWN_SEEDS = True
    FIELDS = {"deal": {"cards": list}, "flip": {"ply": int, "square": str},
              "part": {"ply": int, "square": str, "part": bytes}}
    UNPROVEN = N_("did not prove its part of the deal (its key)")

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

    @classmethod
    def guest_match(cls, game: str, options: dict, seed: int, seats: list[Seat],
                    seat: int) -> Match:
        if options.get("fog"):
            return FogMatch(game, options, seed, seats, seat)
        return Match(game, options, seed, seats)

    @classmethod
    def local_continuation(cls, match: Match) -> str:
        """The face-down pieces are dealt anew: the file's dummy deal is no one's secret, but
        a deal written in the file before the game goes on would be."""
        if not match.over:
            seed = random.SystemRandom().randrange(2**31)
            match.reseeds.append((len(match.moves), seed))
            match.states[-1] = match.rules.reseed(match.state, seed)
        return ""

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

    def shown_since(self, ply: int) -> bool:
        return any(p >= ply for p in self.answered) or \
            any(p >= ply for p, _ in self.opened.values())

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
        sq = _rules(m).parse_square(square)
        card = self.table.get(part)  # the peer's part is the card under this side's key alone
        if card is None:
            raise Violation(f"the flip at {square} does not open to a card")
        for other, (_, seen) in self.opened.items():
            if seen == card and other != sq:
                raise Violation(f"the flip at {square} opens a card already shown")
        if sq in self.parts and self.parts[sq] != part:
            raise Violation(f"a second, different part for {square}")
        if not self.pieces:
            self.pieces = sorted(m.rules.new_game(m.options, 0).under)
        shown = self.pieces[card]
        if piece is not None and piece != shown:
            raise Violation(f"the two sides opened different pieces at {square}")
        try:
            disclose(m, square, shown)
        except RulesError as exc:
            raise Violation(str(exc)) from None
        self.parts[sq] = part
        self.opened[sq] = (len(m.moves), card)
        return shown

    def _my_part(self, square: str) -> bytes:
        """D[square] with this side's key taken off: the guest knows it from its shuffle."""
        assert self.first is not None and self.deck is not None
        sq = _rules(self.side.match).parse_square(square)
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
                or m.state.board[_rules(m).parse_square(square)] != "?":
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
        side, m = self.side, self.side.match
        extra: dict[str, Any] = {}
        if _flip(wire):
            extra = {"piece": m.state.board[_rules(m).parse_square(wire)],
                     "part": self._my_part(wire)}
        if m.options.get("fog"):  # the guest sees its seat's view, and no more
            extra["view"] = view = m.rules.view(m.state, side.peer_seat)
            if mover == side.seat and not _flip(wire) and not view["last"]:
                wire = UNSEEN
            if m.rules.outcome(m.state) is not None:  # the rules' end shows the whole game
                extra["moves"] = list(m.moves)
        return wire, extra

    def receive_as_guest(self, move: Any, message: dict) -> Any:
        side, m = self.side, self.side.match
        if isinstance(m, FogMatch):
            self._take_view(m, move, message)
        asked = self.answered.get(len(m.moves)) if m.to_move() == side.peer_seat else None
        if asked is not None and move != asked:  # its part was given: that flip must come
            raise Violation(f"the host played {str(move)[:8]} after asking to flip {asked}")
        if _flip(move):
            if m.to_move() == side.peer_seat and asked != move:
                raise Violation(f"the host flipped {move} without this side's part")
            self._open(move, _part(message.get("part")), message.get("piece"))
        if isinstance(m, FogMatch) and m.coming is not None:
            if _flip(move):
                self._check_flip_view(m, move, m.coming)
            if "moves" in message:
                m.then = self._whole(m, message["moves"], [*m.views, m.coming])
        return move

    # --- fog of war: the guest checks every view it is sent against what it knows
    @staticmethod
    def _check_flip_view(m: FogMatch, square: str, view: dict) -> None:
        """The view after a flip shows the piece both sides opened, gone from the pool."""
        sq = _rules(m).parse_square(square)
        shown = m.state.under[sq]  # disclosed by the flip's opening
        pool = Counter(m.views[-1]["hidden"])
        pool[shown] -= 1
        if _rules(m).parse_board(view["board"])[sq] not in (shown, "~") or \
                any(view["hidden"].get(k, 0) != n for k, n in pool.items()):
            raise Violation(f"a view that does not show the piece flipped at {square}")

    def _take_view(self, m: FogMatch, move: Any, message: dict) -> None:
        """Check the view the host sends with a ply; it is what the next ply leads to."""
        rules, before = _rules(m), m.views[-1]
        view = _checked_view(rules, message.get("view"), m.options)
        if move != UNSEEN:
            rules.move_from_wire(move)  # a host move it shows must be a move
        mover = before["to_move"]
        if view["to_move"] != 1 - mover:
            raise Violation("a view in which the turn did not pass")
        old, new = rules.parse_board(before["board"]), rules.parse_board(view["board"])
        flipped = {rules.parse_square(move)} if _flip(move) else set()
        down = {sq for sq in range(32) if old[sq] == "?"} - flipped
        if {sq for sq in range(32) if new[sq] == "?"} != down:
            raise Violation("a view whose face-down pieces changed without a flip")
        colour = before["colors"][m.seat]
        if mover == m.seat and isinstance(move, str) and len(move) == 4:
            a, b = rules.parse_square(move[:2]), rules.parse_square(move[2:])
            if new[b] != old[a] or new[a] not in ".~":
                raise Violation(f"a view in which this side's move {move} did not happen")
        elif mover != m.seat and colour is not None:
            mine = {sq for sq in range(32) if rules.colour_of(old[sq]) == colour}
            kept = {sq for sq in range(32) if rules.colour_of(new[sq]) == colour}
            lost = mine - kept
            if kept - mine - flipped or len(lost) > 1 or any(new[sq] == "." for sq in lost):
                raise Violation("a view in which this side's pieces moved on the host's turn")
        if None not in before["colors"] and view["colors"] != before["colors"]:
            raise Violation("a view in which the colours changed")
        if move == UNSEEN and (mover == m.seat or view["last"]):
            raise Violation("a move hidden by the fog that this side could see")
        m.coming = view

    def _whole(self, m: FogMatch, moves: Any, views: list) -> Match:
        """The whole game the host shows at the end, replayed with the pieces both sides
        opened; Violation unless it leads to every view this side was sent."""
        if not isinstance(moves, list) or len(moves) != len(views) - 1:
            raise Violation("the whole game shown at the end is not the game played")
        whole = Match(m.game_id, m.options, m.seed, m.seats)
        pieces = {p: self.pieces[card] for p, card in self.opened.values()}
        for ply, move in enumerate(moves):
            mine = m.moves[ply] if ply < len(m.moves) else None
            try:
                if _flip(move):
                    disclose(whole, move, pieces[ply])
                whole.play(move)
            except (RulesError, KeyError):
                raise Violation(f"the game shown at the end does not play at ply {ply + 1}") \
                    from None
            if mine not in (None, UNSEEN) and mine != move or \
                    m.rules.view(whole.states[ply + 1], m.seat) != views[ply + 1]:
                raise Violation(f"the game shown at the end is not what this side saw at ply "
                                f"{ply + 1}")
        return whole


    def replaying(self) -> None:
        self.opened = {}

    def taken_back(self) -> None:
        plies = len(self.side.match.moves)
        self.opened = {sq: v for sq, v in self.opened.items() if v[0] < plies}
        self.answered = {p: s for p, s in self.answered.items() if p < plies}
        self.pending_flip = None

    def resumed(self) -> None:
        side = self.side
        if self.pending_flip is not None:  # asked: the guest may have given its part
            side.send({"type": "flip", "ply": len(side.match.moves), "square": self.pending_flip})
            side.waiting = True

    # --- a save: this side's key, both passes and what the flips opened
    def to_save(self) -> dict:
        return {"key": _encode(self.key), "order": self.order,
                "first": [_encode(x) for x in self.first or []],
                "deck": [_encode(x) for x in self.deck or []],
                "parts": [[sq, _encode(x)] for sq, x in self.parts.items()],
                "opened": [[sq, p, c] for sq, (p, c) in self.opened.items()],
                "answered": [[p, sq] for p, sq in self.answered.items()],
                "pending_flip": self.pending_flip}

    def restore(self, saved: dict) -> None:
        key = int.from_bytes(saved["key"], "big")
        if not 1 < key < Q or key % 2 == 0:
            raise ValueError("not a key")
        self.key, self.inverse = key, pow(key, -1, P - 1)
        self.table = {pow(c, key, P): t for t, c in enumerate(_CARDS)}
        self.first = _values(saved["first"], "the saved deal") if saved["first"] else None
        self.deck = _values(saved["deck"], "the saved cards") if saved["deck"] else None
        self.order = [int(j) for j in saved["order"]]
        self.parts = {int(sq): _part(x) for sq, x in saved["parts"]}
        self.opened = {int(sq): (int(p), int(c)) for sq, p, c in saved["opened"]}
        self.answered = {int(p): str(sq) for p, sq in saved["answered"]}
        flip = saved.get("pending_flip")
        self.pending_flip = flip if isinstance(flip, str) and _flip(flip) else None

    # --- the end: keys out, everything checked
    def secret(self) -> dict | None:
        m = self.side.match
        if self.side.is_host and m.options.get("fog"):  # the game is over: it may be seen
            return {"key": _encode(self.key), "moves": list(m.moves)}
        return {"key": _encode(self.key)}

    def secret_expected(self) -> bool:
        return self.first is not None and self.deck is not None

    def check_reveal(self, salt: bytes, message: dict) -> Verdict:
        name, m = self.side.peer_name, self.side.match
        problem = self._problem(message.get("key"))
        if not problem and isinstance(m, FogMatch) and not m.whole:
            moves = message.get("moves")
            if isinstance(moves, list):  # plies past this side's record crossed its end
                moves = moves[:len(m.views) - 1]
            try:
                m.adopt(self._whole(m, moves, m.views))
            except Violation as exc:
                problem = Text(N_("did not show the game it refereed ({why})"), {"why": str(exc)})
        if problem:
            return Verdict(N_("Warning: {name} {problem}; unverified, the game is lost for it"),
                           False, {"name": name, "problem": problem})
        return Verdict(N_("{name}'s part of the deal checked: every flip came from the shuffle"),
                       True, {"name": name})

    def _problem(self, raw: Any) -> Text | None:
        if not isinstance(raw, bytes) or len(raw) != SIZE:
            return Text(N_("revealed no key"))
        key = int.from_bytes(raw, "big")
        if not 1 < key < Q or key % 2 == 0:
            return Text(N_("revealed a key that is no key"))
        assert self.first is not None and self.deck is not None
        if self.side.is_host:
            passed = sorted(pow(x, key, P) for x in self.first)
            if passed != sorted(self.deck):
                return Text(N_("dealt cards that are not the host's, shuffled and encrypted"))
        elif sorted(pow(c, key, P) for c in _CARDS) != sorted(self.first):
            return Text(N_("dealt cards that are not the 32 pieces, shuffled and encrypted"))
        for sq, part in self.parts.items():
            if pow(part, key, P) != self.deck[sq]:
                return Text(N_("opened a flip (square {square}) with a part that is not its "
                               "key's"), {"square": sq})
        return None


def _checked_view(rules: Any, raw: Any, options: dict) -> dict:
    """A view from the host, of the declared keys and types only; Violation otherwise."""
    if not isinstance(raw, dict):
        raise Violation("a ply under the fog without its view")
    view: dict[str, Any] = {}
    for key, kind in _VIEW_KEYS.items():
        value = raw.get(key)
        if not isinstance(value, kind) or (kind is int and type(value) is bool):
            raise Violation(f"a view whose {key!r} is missing or of the wrong type")
        view[key] = value
    if "history" in raw:  # a view without the fog (the game is over)
        history = raw["history"]
        if not isinstance(history, list) or len(history) > 4 * 180 or \
                not all(isinstance(h, str) and len(h) < 64 for h in history):
            raise Violation("a view whose history is not one")
        view["history"] = history
    try:
        board = rules.parse_board(view["board"])
    except RulesError as exc:
        raise Violation(str(exc)) from None
    colours = view["colors"]
    hidden = view["hidden"]
    if view["to_move"] not in (0, 1) or len(colours) != 2 \
            or any(c not in (None, "red", "black") for c in colours) \
            or set(hidden) != set(rules.KINDS + rules.KINDS.lower()) \
            or any(type(n) is not int or n < 0 for n in hidden.values()) \
            or sum(hidden.values()) != board.count("?") \
            or len(view["captured"]) > 32 \
            or any(not isinstance(p, str) or p not in set(hidden) for p in view["captured"]) \
            or view["variant"] != options["variant"] or view["fog"] is not True:
        raise Violation("a view that is not one of this game")
    return view


SECRETS = SharedDeal
