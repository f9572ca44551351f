"""Jungle (斗兽棋, Dou Shou Qi) on 7 files x 9 ranks (docs/protocol.md "jungle").

Squares are numbered rank * 7 + file, a1 = 0, g9 = 62. A board is a tuple of 63 characters: a
piece letter (upper case seat 0, lower case seat 1) or "." for empty; the water, traps and dens
are fixed geometry, not written on the board. The search in ai/jungle.py uses the same move
generator (`moves_on`) and capture rule (`can_take`) the contract functions are built on.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
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

ID = "jungle"
TITLE = "Jungle"
TAGLINE = "Dou Shou Qi: the rat takes the elephant."
PLAYERS = 2
SEAT_NAMES: tuple[str, ...] = ("red", "blue")
SEATS_NAMED_BY_TURN = False
HIDDEN = False
hides_between_seats = seats_hide_nothing
SETUP = False
CHANCE = False
UAI = False
setup_pending = no_setup_pending
opens_deal = opens_nothing_dealt
reseed = no_reseed

FILES, RANKS = 7, 9
SIZE = FILES * RANKS
FILE_NAMES = "abcdefg"
START = "t5l/1c3d1/e1w1p1r/7/7/7/R1P1W1E/1D3C1/L5T"
KINDS = "ELTPDWCR"  # strongest first
RANKS_OF = {
    "standard": {"E": 8, "L": 7, "T": 6, "P": 5, "D": 4, "W": 3, "C": 2, "R": 1},
    "wolf_over_dog": {"E": 8, "L": 7, "T": 6, "P": 5, "W": 4, "D": 3, "C": 2, "R": 1},
}
NAMES = {"E": "elephant", "L": "lion", "T": "tiger", "P": "leopard", "D": "dog", "W": "wolf",
         "C": "cat", "R": "rat"}
REPEAT_LIMIT = 3  # the same position (board and side to move) this many times

OPTIONS: tuple[Option, ...] = (
    # The wolf over the dog, as Chinese rule books and apps rank them (象狮虎豹狼狗猫鼠); some
    # Western sets put the dog first. The wire names are kept from when that was the default.
    Option("ranks", "Ranks", (("wolf_over_dog", "Wolf over dog"), ("standard", "Dog over wolf")),
           "wolf_over_dog"),
    Option("traps", "Traps", (("enemy", "Enemy traps only"), ("any", "Any trap")), "enemy"),
    Option("quiet_limit", "Draw after", ((100, "100 moves without capture"),
                                         (200, "200 moves without capture")), 100),
    Option("repetition", "Repetition", (("draw", "Third time draws"),
                                        ("forbidden", "Third time forbidden")), "draw"),
)


def sq_of(file: int, rank: int) -> int:
    """The square on file 0..6, rank 0..8 (rank 0 is rank 1)."""
    return rank * FILES + file


def square_name(sq: int) -> str:
    return FILE_NAMES[sq % FILES] + str(sq // FILES + 1)


def parse_square(text: str) -> int:
    if (not isinstance(text, str) or len(text) != 2 or text[0] not in FILE_NAMES
            or text[1] not in "123456789"):
        raise RulesError(f"{text!r} is not a square a1..g9")
    return sq_of(FILE_NAMES.index(text[0]), int(text[1]) - 1)


DENS = (sq_of(3, 0), sq_of(3, 8))  # d1 is seat 0's den, d9 seat 1's
# The traps round each seat's den: TRAPS[seat] are the squares that seat's pieces defend.
TRAPS = (frozenset({sq_of(2, 0), sq_of(4, 0), sq_of(3, 1)}),
         frozenset({sq_of(2, 8), sq_of(4, 8), sq_of(3, 7)}))
ALL_TRAPS = TRAPS[0] | TRAPS[1]
WATER = frozenset(sq_of(f, r) for f in (1, 2, 4, 5) for r in (3, 4, 5))


def _steps(sq: int) -> tuple[int, ...]:
    r, f = divmod(sq, FILES)
    out = []
    if r < RANKS - 1:
        out.append(sq + FILES)
    if r > 0:
        out.append(sq - FILES)
    if f > 0:
        out.append(sq - 1)
    if f < FILES - 1:
        out.append(sq + 1)
    return tuple(out)


def _jumps(sq: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """(landing square, the water squares crossed) for a lion or tiger on sq."""
    if sq in WATER:
        return ()
    out = []
    r, f = divmod(sq, FILES)
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):  # across a river along the rank or file
        crossed = []
        ff, rr = f + df, r + dr
        while 0 <= ff < FILES and 0 <= rr < RANKS and sq_of(ff, rr) in WATER:
            crossed.append(sq_of(ff, rr))
            ff, rr = ff + df, rr + dr
        if crossed and 0 <= ff < FILES and 0 <= rr < RANKS:
            out.append((sq_of(ff, rr), tuple(crossed)))
    return tuple(out)


STEPS = tuple(_steps(sq) for sq in range(SIZE))
JUMPS = tuple(_jumps(sq) for sq in range(SIZE))

RULES_TEXT = """
# Goal
Move one of your animals into your opponent's den (the square in the middle of the far edge),
or take all of your opponent's animals. A player with no legal move loses.

# The board
Seven files by nine ranks. Each side has a den, three traps round it, and between the two
camps lie two rivers of 2 × 3 water squares. Red moves first from ranks 1-3; blue starts on
ranks 7-9, the same position turned about the centre.

# The animals
Elephant 8, lion 7, tiger 6, leopard 5, wolf 4, dog 3, cat 2, rat 1 (象獅虎豹狼狗貓鼠), as
Chinese rule books and game apps rank them. Some Western sets put the dog above the wolf: the
"dog over wolf" option plays that way. Every animal steps one square up, down, left or right.
No animal may enter its own den.

# Taking
An animal takes an enemy of equal or lower rank by stepping onto it. The rat takes the
elephant; the elephant never takes the rat.

# The rivers
Only the rat swims. A rat in the water cannot take anything on land (the elephant included),
and rats fight each other in the water or on land only when both are there. The lion and the
tiger jump a river in a straight line, along the rank or along the file, to the first square
of land beyond it, and may take there; a rat (of either side) in the water on the way blocks
the jump.

# Traps
An animal in one of its enemy's traps has rank 0: any enemy animal, the elephant against a rat
included, may take it. With the "any trap" option this holds in every trap, one's own too.
Traps limit only being taken; an animal in a trap takes as usual.

# Draws
The game is drawn after 100 moves (or 200, an option) by the two players together without a
capture, or when the same position with the same side to move occurs for the third time. With
the "third time forbidden" option a move that would make a position occur for the third time
is not allowed instead (a side left without a move loses).
"""


class State(NamedTuple):
    board: tuple[str, ...]  # 63 squares, a1 first
    turn: int
    plies: int
    quiet: int  # plies since the last capture
    history: tuple  # (board, turn) since the last capture, the current one last
    ranks: str
    traps: str
    quiet_limit: int
    repetition: str
    last: str = ""


def owner(piece: str) -> int:
    """0 for an upper-case piece, 1 for a lower-case one (call on pieces only)."""
    return 0 if piece < "a" else 1


def trapped(sq: int, piece_seat: int, traps: str) -> bool:
    """Whether a piece of piece_seat on sq has rank 0 (it is in a trap that counts)."""
    if traps == "any":
        return sq in ALL_TRAPS
    return sq in TRAPS[1 - piece_seat]


def can_take(attacker: str, a_sq: int, victim: str, v_sq: int, ranks: dict, traps: str) -> bool:
    """Whether attacker on a_sq may take victim on v_sq (both pieces, of different seats)."""
    a, v = attacker.upper(), victim.upper()
    if a == "R":
        if (a_sq in WATER) != (v_sq in WATER):
            return False
    elif v_sq in WATER:
        return False
    if trapped(v_sq, owner(victim), traps):
        return True
    if a == "R" and v == "E":
        return True
    if a == "E" and v == "R":
        return False
    return ranks[a] >= ranks[v]


def moves_on(board, seat: int, ranks: str, traps: str) -> list[tuple[int, int]]:
    """Every (from, to) the side of seat may play on this board (repetition aside)."""
    rank_of = RANKS_OF[ranks]
    own_den = DENS[seat]
    out = []
    for sq in range(SIZE):
        p = board[sq]
        if p == "." or owner(p) != seat:
            continue
        kind = p.upper()
        for t in STEPS[sq]:
            if t == own_den or (t in WATER and kind != "R"):
                continue
            q = board[t]
            if q == "." or (owner(q) != seat and can_take(p, sq, q, t, rank_of, traps)):
                out.append((sq, t))
        if kind == "L" or kind == "T":
            for t, crossed in JUMPS[sq]:
                if any(board[w] != "." for w in crossed):
                    continue  # only a rat can be in the water
                q = board[t]
                if q == "." or (owner(q) != seat and can_take(p, sq, q, t, rank_of, traps)):
                    out.append((sq, t))
    return out


def move_name(move: tuple[int, int]) -> str:
    return square_name(move[0]) + square_name(move[1])


def board_text(board) -> str:
    """63 squares as docs/protocol.md's board string: ranks 9 to 1, digits for empty runs."""
    return _board_text(tuple(board))


@lru_cache(maxsize=4096)  # a view writes out every position since the last capture
def _board_text(board: tuple[str, ...]) -> str:
    rows = []
    for r in range(RANKS - 1, -1, -1):
        row, run = "", 0
        for p in board[r * FILES:(r + 1) * FILES]:
            if p == ".":
                run += 1
                continue
            if run:
                row, run = row + str(run), 0
            row += p
        rows.append(row + (str(run) if run else ""))
    return "/".join(rows)


def parse_board(text) -> tuple[str, ...]:
    """The 63 squares (a1 first) of a board string; RulesError if malformed."""
    if not isinstance(text, str) or len(text) > 200:
        raise RulesError(f"a jungle board is text like {START!r}, not {text!r}")
    rows = text.split("/")
    if len(rows) != RANKS:
        raise RulesError(f"a jungle board has {RANKS} ranks: {text!r}")
    squares: list[str] = []
    for row in reversed(rows):
        cells: list[str] = []
        for ch in row:
            if ch in "1234567":
                cells.extend("." * int(ch))
            elif ch.upper() in KINDS:
                cells.append(ch)
            else:
                raise RulesError(f"unknown piece {ch!r} in {text!r}")
        if len(cells) != FILES:
            raise RulesError(f"a rank of a jungle board has {FILES} squares: {row!r}")
        squares.extend(cells)
    counts = Counter(p for p in squares if p != ".")
    if any(n > 1 for n in counts.values()):
        raise RulesError(f"an animal appears twice in {text!r}")
    for sq, p in enumerate(squares):
        if p == ".":
            continue
        if sq in WATER and p.upper() != "R":
            raise RulesError(f"only a rat can be in the water: {p} on {square_name(sq)}")
        if sq == DENS[owner(p)]:
            raise RulesError(f"{p} stands in its own den on {square_name(sq)}")
    return tuple(squares)


def normalize_options(options: dict | None) -> dict:
    return normalize_with(OPTIONS, options)


def new_game(options: dict | None = None, seed: int = 0) -> State:
    return from_board(START, 0, options)


def from_board(text: str, turn: int = 0, options: dict | None = None) -> State:
    """A state with this board string and side to move (tests, puzzles, the bench)."""
    o = normalize_options(options)
    board = parse_board(text)
    if turn not in (0, 1):
        raise RulesError(f"the side to move is 0 or 1, not {turn!r}")
    return State(board, turn, 0, 0, ((board, turn),), o["ranks"], o["traps"],
                 o["quiet_limit"], o["repetition"])


def options_of(state: State) -> dict:
    return {"ranks": state.ranks, "traps": state.traps, "quiet_limit": state.quiet_limit,
            "repetition": state.repetition}


def after(board, move: tuple[int, int]) -> tuple[str, ...]:
    """The board once move is played."""
    a, b = move
    new = list(board)
    new[b], new[a] = new[a], "."
    return tuple(new)


def _allowed(board, turn: int, moves: list[tuple[int, int]], seen: Counter,
             repetition: str) -> list[tuple[int, int]]:
    if repetition != "forbidden":
        return moves
    return [m for m in moves
            if board[m[1]] != "." or seen[(after(board, m), 1 - turn)] < REPEAT_LIMIT - 1]


def _seen(state: State) -> Counter:
    return Counter(state.history)


def legal_moves(state: State) -> list[str]:
    if outcome(state) is not None:
        return []
    return [move_name(m) for m in _legal(state)]


def _legal(state: State) -> list[tuple[int, int]]:
    moves = moves_on(state.board, state.turn, state.ranks, state.traps)
    return _allowed(state.board, state.turn, moves, _seen(state), state.repetition)


def legal_moves_from_view(view: dict, options: dict) -> list[str]:
    """The same list, from the view (its history gives the repetitions)."""
    try:
        o = normalize_options(view.get("options", options))
        board = parse_board(view["board"])
        turn = view["to_move"]
        if turn not in (0, 1):
            raise RulesError(f"to_move is 0 or 1, not {turn!r}")
        seen = Counter((parse_board(b), t) for b, t in
                       (_history_item(h) for h in view.get("history", [])))
    except (KeyError, TypeError, AttributeError) as exc:
        raise RulesError(f"not a jungle view: {exc}") from exc
    moves = moves_on(board, turn, o["ranks"], o["traps"])
    return [move_name(m) for m in _allowed(board, turn, moves, seen, o["repetition"])]


def _history_item(text: str) -> tuple[str, int]:
    board, _, turn = text.rpartition(" ")
    if turn not in ("0", "1"):
        raise RulesError(f"a history entry is 'BOARD seat': {text!r}")
    return board, int(turn)


def score(state: State) -> tuple[int, int]:
    """Animals each seat still has."""
    n0 = sum(1 for p in state.board if p != "." and p < "a")
    n1 = sum(1 for p in state.board if p >= "a")
    return n0, n1


def outcome(state: State) -> Outcome | None:
    board = state.board
    counts = score(state)
    for seat in (0, 1):
        p = board[DENS[1 - seat]]
        if p != "." and owner(p) == seat:
            return Outcome(seat, counts, Termination.TARGET,
                           Text(N_("{seat} entered the {other} den"),
                                {"seat": Text(SEAT_NAMES[seat]),
                                 "other": Text(SEAT_NAMES[1 - seat])}))
    for seat in (0, 1):
        if counts[1 - seat] == 0:
            return Outcome(seat, counts, Termination.NO_PIECES,
                           Text(N_("{seat} has no animals left"),
                                {"seat": Text(SEAT_NAMES[1 - seat])}))
    if not _legal(state):
        return Outcome(1 - state.turn, counts, Termination.NO_MOVES,
                       Text(N_("{seat} has no legal move"),
                                {"seat": Text(SEAT_NAMES[state.turn])}))
    if state.quiet >= state.quiet_limit:
        return Outcome(None, counts, Termination.MOVE_LIMIT,
                       Text(N_("{n} moves without a capture"), {"n": state.quiet_limit}))
    if state.repetition == "draw" and state.history.count(state.history[-1]) >= REPEAT_LIMIT:
        return Outcome(None, counts, Termination.REPETITION,
                       Text(N_("the same position three times")))
    return None


def to_move(state: State) -> int | None:
    return None if outcome(state) is not None else state.turn


def apply(state: State, move: str) -> State:
    move = move_from_wire(move)
    if outcome(state) is not None:
        raise RulesError("the game is over")
    pair = (parse_square(move[:2]), parse_square(move[2:]))
    if pair not in _legal(state):
        raise RulesError(f"{move} is not legal here")
    capture = state.board[pair[1]] != "."
    board = after(state.board, pair)
    turn = 1 - state.turn
    key = (board, turn)
    history = (key,) if capture else state.history + (key,)
    return state._replace(board=board, turn=turn, plies=state.plies + 1,
                          quiet=0 if capture else state.quiet + 1, history=history, last=move)


def view(state: State, seat: int | None) -> dict:
    """Everything is open: both seats see the same board and the positions since the last
    capture (for the repetition rule)."""
    return {"board": board_text(state.board), "to_move": state.turn, "plies": state.plies,
            "quiet_plies": state.quiet, "options": options_of(state), "last": state.last,
            "history": [f"{board_text(b)} {t}" for b, t in state.history]}


def move_to_wire(move: str) -> str:
    return move


def move_from_wire(wire) -> str:
    if not isinstance(wire, str) or len(wire) != 4:
        raise RulesError(f"a jungle move is from and to, like 'a3a4', not {wire!r}")
    parse_square(wire[:2])
    parse_square(wire[2:])
    return wire
