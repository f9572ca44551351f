"""Ataxx on 7x7, exactly as libataxx plays it (docs/protocol.md "ataxx").

Squares are numbered rank * 7 + file, a1 = 0, g7 = 48; a position keeps one bitboard (a Python
int) per side and one for the blockers ("gaps"). The search in ai/ataxx.py uses the same
bitboard helpers (moves_of, make, count_moves) the pure contract functions are built on.
"""

from __future__ import annotations

from typing import NamedTuple

from game.i18n import N_, Text
from game.rules import (
    Option,
    Outcome,
    RulesError,
    Termination,
    no_reseed,
    no_setup_pending,
    normalize_with,
    opens_nothing_dealt,
    seats_hide_nothing,
)

ID = "ataxx"
TITLE = "Ataxx"
TAGLINE = "Clone, jump, convert."
PLAYERS = 2
SEAT_NAMES: tuple[str, ...] = ("x", "o")
SEATS_NAMED_BY_TURN = False
HIDDEN = False
hides_between_seats = seats_hide_nothing
SETUP = False
CHANCE = False
UAI = True
setup_pending = no_setup_pending
opens_deal = opens_nothing_dealt
reseed = no_reseed
SIZE = 7
ALL = (1 << 49) - 1
START_FEN = "x5o/7/7/7/7/7/o5x x 0 1"
PASS = "0000"
PASS_WORD = "pass"  # the same move as some engines write it
DRAW_HALFMOVES = 100

LAYOUTS = {
    "empty": "x5o/7/7/7/7/7/o5x x 0 1",
    "corners": "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
    "sides": "x5o/7/3-3/2-1-2/3-3/7/o5x x 0 1",
    "cross": "x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1",
}
OPTIONS: tuple[Option, ...] = (
    Option("layout", "Board", (("empty", "Open board"), ("corners", "4 corners"),
                               ("sides", "4 sides"), ("cross", "Cross")), "empty"),
)

RULES_TEXT = f"""
# Goal
Have more stones than your opponent when the game ends.

# Moves
Players take turns; x (red) moves first. A move puts one of your stones on an empty square:
a clone moves to any of the 8 neighbouring squares and leaves the original in place, so you
gain a stone; a jump goes to a square exactly two steps away (the 16 squares of the outer ring)
and leaves its old square empty. Blockers (grey squares) can never be entered.

# Conversion
After a clone or a jump, every enemy stone touching the square you moved to becomes yours.

# Passing and the end
If you have no legal move but the game is not over, you must pass. The game ends when a side
has no stones left, when neither side can move (a full board included), or after
{DRAW_HALFMOVES} moves in a row without a clone, which is a draw. Otherwise the side with more
stones wins; equal counts draw.
"""


class Position(NamedTuple):
    """A position: bitboards of x, o and the blockers, the side to move (0 x, 1 o) and the
    two FEN counters."""

    x: int
    o: int
    gaps: int
    turn: int
    halfmove: int = 0
    fullmove: int = 1

    def own(self) -> int:
        return self.o if self.turn else self.x

    def enemy(self) -> int:
        return self.x if self.turn else self.o


def _square_masks() -> tuple[list[int], list[int]]:
    near, far = [], []
    for sq in range(49):
        r, f = divmod(sq, 7)
        n1 = n2 = 0
        for dr in range(-2, 3):
            for df in range(-2, 3):
                rr, ff = r + dr, f + df
                if (dr or df) and 0 <= rr < 7 and 0 <= ff < 7:
                    if max(abs(dr), abs(df)) == 1:
                        n1 |= 1 << (rr * 7 + ff)
                    else:
                        n2 |= 1 << (rr * 7 + ff)
        near.append(n1)
        far.append(n2)
    return near, far


NEAR, FAR = _square_masks()
FILE_A = sum(1 << (r * 7) for r in range(7))
FILE_G = sum(1 << (r * 7 + 6) for r in range(7))


def spread(b: int) -> int:
    """Every square next to a stone of b (the clone targets, before removing occupied ones)."""
    w = (b & ~FILE_A) >> 1
    e = (b & ~FILE_G) << 1
    row = b | w | e
    return (row | (row << 7) | (row >> 7)) & ALL


def squares(b: int):
    """The square numbers of the set bits of b."""
    while b:
        low = b & -b
        yield low.bit_length() - 1
        b ^= low


def name(sq: int) -> str:
    return "abcdefg"[sq % 7] + str(sq // 7 + 1)


def parse_square(text: str) -> int:
    if len(text) != 2 or text[0] not in "abcdefg" or text[1] not in "1234567":
        raise RulesError(f"{text!r} is not a square a1..g7")
    return (int(text[1]) - 1) * 7 + "abcdefg".index(text[0])


# --- fast core: moves as (from, to), from == -1 for a clone, (-1, -1) for a pass
def moves_of(pos: Position) -> list[tuple[int, int]]:
    """Every legal move of the side to move, a pass if it has none; [] when the game is over."""
    if game_over(pos):
        return []
    own = pos.own()
    empty = ALL & ~(pos.x | pos.o | pos.gaps)
    moves = [(-1, to) for to in squares(spread(own) & empty)]
    for frm in squares(own):
        moves.extend((frm, to) for to in squares(FAR[frm] & empty))
    return moves or [(-1, -1)]


def has_move(own: int, empty: int) -> bool:
    if spread(own) & empty:
        return True
    return any(FAR[sq] & empty for sq in squares(own))


def count_moves(pos: Position) -> int:
    """len(moves_of(pos)) without building the list (perft's last ply)."""
    if game_over(pos):
        return 0
    own = pos.own()
    empty = ALL & ~(pos.x | pos.o | pos.gaps)
    n = (spread(own) & empty).bit_count()
    for frm in squares(own):
        n += (FAR[frm] & empty).bit_count()
    return n or 1


def make(pos: Position, frm: int, to: int) -> Position:
    """The position after a legal move (no checks: the search's hot path)."""
    x, o, turn = pos.x, pos.o, pos.turn
    full = pos.fullmove + turn
    if to < 0:
        return Position(x, o, pos.gaps, 1 - turn, pos.halfmove + 1, full)
    bit = 1 << to
    if turn == 0:
        won = NEAR[to] & o
        x |= bit | won
        o ^= won
        if frm >= 0:
            x ^= 1 << frm
    else:
        won = NEAR[to] & x
        o |= bit | won
        x ^= won
        if frm >= 0:
            o ^= 1 << frm
    half = 0 if frm < 0 else pos.halfmove + 1
    return Position(x, o, pos.gaps, 1 - turn, half, full)


def game_over(pos: Position) -> bool:
    if not pos.x or not pos.o or pos.halfmove >= DRAW_HALFMOVES:
        return True
    empty = ALL & ~(pos.x | pos.o | pos.gaps)
    return not has_move(pos.x, empty) and not has_move(pos.o, empty)


def perft(pos: Position, depth: int) -> int:
    """The number of move sequences of this length (libataxx's perft: a pass counts)."""
    if depth <= 0:
        return 1
    if depth == 1:
        return count_moves(pos)
    return sum(perft(make(pos, f, t), depth - 1) for f, t in moves_of(pos))


# --- text forms
def from_fen(fen: str) -> Position:
    """Read libataxx's FEN ("pieces side [halfmove [fullmove]]"); RulesError if malformed."""
    if not isinstance(fen, str):
        raise RulesError("a FEN must be text")
    parts = fen.split()
    if not 2 <= len(parts) <= 4:
        raise RulesError(f"FEN {fen!r}: expected 'pieces side halfmove fullmove'")
    ranks = parts[0].split("/")
    if len(ranks) != 7:
        raise RulesError(f"FEN {fen!r}: expected 7 ranks, found {len(ranks)}")
    x = o = gaps = 0
    for i, rank in enumerate(ranks):
        r = 6 - i
        f = 0
        for ch in rank:
            if ch in "1234567":
                f += int(ch)
            elif ch in "xXoO-":
                if f >= 7:
                    raise RulesError(f"FEN {fen!r}: rank {r + 1} is too long")
                bit = 1 << (r * 7 + f)
                if ch in "xX":
                    x |= bit
                elif ch in "oO":
                    o |= bit
                else:
                    gaps |= bit
                f += 1
            else:
                raise RulesError(f"FEN {fen!r}: unexpected {ch!r}")
        if f != 7:
            raise RulesError(f"FEN {fen!r}: rank {r + 1} has {f} squares, not 7")
    if parts[1] not in ("x", "o", "X", "O", "b", "w"):
        raise RulesError(f"FEN {fen!r}: side to move must be x or o")
    turn = 0 if parts[1] in ("x", "X", "b") else 1
    try:
        half = int(parts[2]) if len(parts) > 2 else 0
        full = int(parts[3]) if len(parts) > 3 else 1
    except ValueError as exc:
        raise RulesError(f"FEN {fen!r}: move counters must be numbers") from exc
    if half < 0 or full < 1:
        raise RulesError(f"FEN {fen!r}: move counters out of range")
    return Position(x, o, gaps, turn, half, full)


def to_fen(pos: Position) -> str:
    rows = []
    for r in range(6, -1, -1):
        row, run = "", 0
        for f in range(7):
            bit = 1 << (r * 7 + f)
            ch = "x" if pos.x & bit else "o" if pos.o & bit else "-" if pos.gaps & bit else ""
            if ch:
                row += (str(run) if run else "") + ch
                run = 0
            else:
                run += 1
        rows.append(row + (str(run) if run else ""))
    return f"{'/'.join(rows)} {'xo'[pos.turn]} {pos.halfmove} {pos.fullmove}"


def move_text(frm: int, to: int) -> str:
    if to < 0:
        return PASS
    return name(to) if frm < 0 else name(frm) + name(to)


def parse_move(text: str) -> tuple[int, int]:
    if text == PASS:
        return (-1, -1)
    if len(text) == 2:
        return (-1, parse_square(text))
    if len(text) == 4:
        return parse_square(text[:2]), parse_square(text[2:])
    raise RulesError(f"{text!r} is not a move: use 'f2', 'a1c3' or '0000'")


# --- the rules contract
def normalize_options(options: dict | None) -> dict:
    return normalize_with(OPTIONS, options)


def new_game(options: dict | None = None, seed: int = 0) -> Position:
    return from_fen(LAYOUTS[normalize_options(options)["layout"]])


def to_move(state: Position) -> int | None:
    return None if game_over(state) else state.turn


def legal_moves(state: Position) -> list[str]:
    return [move_text(f, t) for f, t in moves_of(state)]


def apply(state: Position, move: str) -> Position:
    move = move_from_wire(move)
    if game_over(state):
        raise RulesError("the game is over")
    frm, to = parse_move(move)
    if frm >= 0 and NEAR[frm] >> to & 1 and state.own() >> frm & 1:
        frm = -1  # "c4d4" from one's own stone is the clone d4, as libataxx reads it
    if (frm, to) not in moves_of(state):
        raise RulesError(f"{move} is not legal here")
    return make(state, frm, to)


def legal_moves_from_view(view: dict, options: dict) -> list[str]:
    """The legal moves of the side to move in the view's FEN."""
    if not isinstance(view, dict) or not isinstance(view.get("fen"), str):
        raise RulesError("an Ataxx view carries its position as 'fen'")
    return legal_moves(from_fen(view["fen"]))


def score(state: Position) -> tuple[int, int]:
    """Stones on the board per side."""
    return state.x.bit_count(), state.o.bit_count()


def outcome(state: Position) -> Outcome | None:
    if not game_over(state):
        return None
    nx, no = score(state)
    if not nx or not no:
        return Outcome(0 if nx else 1, (nx, no), Termination.NO_PIECES,
                       Text(N_("{seat} has no stones left"),
                            {"seat": Text(SEAT_NAMES[1 if nx else 0])}))
    if state.halfmove >= DRAW_HALFMOVES:
        return Outcome(None, (nx, no), Termination.MOVE_LIMIT,
                       Text(N_("{n} moves without a clone"), {"n": DRAW_HALFMOVES}))
    reason = Text(N_("the board is full")) if not ALL & ~(state.x | state.o | state.gaps) \
        else Text(N_("neither side can move"))
    return Outcome(None if nx == no else (0 if nx > no else 1), (nx, no), Termination.SCORE,
                   reason)


def view(state: Position, seat: int | None) -> dict:
    return {"fen": to_fen(state)}


def move_to_wire(move: str) -> str:
    return move


def move_from_wire(wire) -> str:
    """The move as the rules write it; a pass may come as "pass" (AtaxxDotCpp writes it so)."""
    if not isinstance(wire, str):
        raise RulesError(f"an Ataxx move is text like 'f2', 'a1c3' or '0000', not {wire!r}")
    if wire == PASS_WORD:
        return PASS
    parse_move(wire)
    return wire
