"""Banqi, Chinese dark chess (docs/protocol.md "banqi"): 32 pieces face down on a 4 x 8 board.

Squares are numbered rank * 8 + file (a1 = 0, h4 = 31). Each turn flips a face-down piece or
moves a face-up piece of one's own colour. The identities under the face-down pieces are dealt
from the seed; `reseed` deals the still-hidden ones again (the match does so after an undo, so
taking back a flip never shows for free what lies under a piece).

Views: a face-down piece is "?"; with the fog-of-war option, every square the seat can neither
see (its own pieces and where they can move or capture, and every face-down piece) is "~",
whether empty or not.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import NamedTuple

from game.i18n import N_, Text
from game.rules import Option, Outcome, RulesError, Termination, no_setup_pending, normalize_with

ID = "banqi"
TITLE = "Banqi"
TAGLINE = "Chinese dark chess."
PLAYERS = 2
SEAT_NAMES: tuple[str, ...] = ("first", "second")
SEATS_NAMED_BY_TURN = True  # "first" and "second": the names say who moves first
HIDDEN = True


def hides_between_seats(options: dict) -> bool:
    """Face-down pieces are hidden from both alike: only the fog hides one side's sight."""
    return bool(options.get("fog"))

SETUP = False
CHANCE = True
UAI = False
setup_pending = no_setup_pending
FILES, RANKS = 8, 4
KINDS = "KAERNCP"
RANK_OF = {k: 7 - i for i, k in enumerate(KINDS)}  # K 7 ... P 1
COUNTS = {"K": 1, "A": 2, "E": 2, "R": 2, "N": 2, "C": 2, "P": 5}
QUIET_LIMIT = 180
OPTIONS: tuple[Option, ...] = (
    Option("variant", "Rules", (("taiwan", "Taiwan"), ("china", "China")), "taiwan"),
    Option("fog", "Fog of war", ((False, "Off"), (True, "On")), False),
)

RULES_TEXT = f"""
# Goal
Capture all of your opponent's pieces, or leave them without a legal move.

# The board
The 32 pieces of Chinese chess lie face down on half a board, 4 × 8. On your turn you either
flip a face-down piece or move one of your own face-up pieces. The first piece flipped gives
its colour to the player who flipped it.

# Moving and capturing
Every piece steps one square up, down, left or right, onto an empty square or onto an enemy
piece it may capture. Ranks: General > Advisor > Elephant > Chariot > Horse > Cannon > Soldier.
A piece captures pieces of equal or lower rank, except that the General cannot take a Soldier
and a Soldier can take the General. Face-down pieces cannot be captured or moved onto.

# The cannon (Taiwan rules)
The Cannon captures only by jumping over exactly one piece (of either colour, face up or down)
along a rank or file, any distance, and then it may take any enemy piece.

# China rules
The Cannon captures by rank like the others, and the General may take Soldiers.

# Draws
The game is drawn after {QUIET_LIMIT} moves in a row without a flip or a capture, or when the same
position, as both players see it, occurs for the third time.

# Fog of war (optional)
You see your own pieces, the face-down pieces, and the squares your pieces can move to or
attack; the rest of the board is under clouds.
"""


def square_name(sq: int) -> str:
    return "abcdefgh"[sq % FILES] + str(sq // FILES + 1)


def parse_square(text: str) -> int:
    if len(text) != 2 or text[0] not in "abcdefgh" or text[1] not in "1234":
        raise RulesError(f"{text!r} is not a square a1..h4")
    return (int(text[1]) - 1) * FILES + "abcdefgh".index(text[0])


def neighbours(sq: int) -> list[int]:
    r, f = divmod(sq, FILES)
    out = []
    if r > 0:
        out.append(sq - FILES)
    if r < RANKS - 1:
        out.append(sq + FILES)
    if f > 0:
        out.append(sq - 1)
    if f < FILES - 1:
        out.append(sq + 1)
    return out


def rays(sq: int) -> list[list[int]]:
    """The squares along each of the four directions from sq, nearest first."""
    r, f = divmod(sq, FILES)
    return [[(rr) * FILES + f for rr in range(r + 1, RANKS)],
            [(rr) * FILES + f for rr in range(r - 1, -1, -1)],
            [r * FILES + ff for ff in range(f + 1, FILES)],
            [r * FILES + ff for ff in range(f - 1, -1, -1)]]


NEIGHBOURS = [neighbours(sq) for sq in range(32)]
RAYS = [rays(sq) for sq in range(32)]


def colour_of(piece: str) -> str | None:
    """'red' for upper case, 'black' for lower case, None for '?', '.', '~'."""
    if piece.isalpha():
        return "red" if piece.isupper() else "black"
    return None


def can_take(attacker: str, victim: str, variant: str) -> bool:
    """Whether a piece may capture another by stepping onto it (ranks only)."""
    a, v = attacker.upper(), victim.upper()
    if variant == "taiwan" and a == "C":
        return False  # the Taiwan cannon only captures by jumping
    if a == "P" and v == "K":
        return True
    if a == "K" and v == "P":
        return variant == "china"
    return RANK_OF[a] >= RANK_OF[v]


class State(NamedTuple):
    board: tuple[str, ...]  # 32 squares: a piece letter, "?" face down, "." empty
    under: tuple[str, ...]  # what lies under each "?" ("" elsewhere)
    colors: tuple  # per seat: "red" / "black", or None before the first flip
    turn: int
    quiet: int  # plies since the last flip or capture
    history: tuple  # public positions since the last flip or capture
    variant: str
    fog: bool
    last: str = ""


def normalize_options(options: dict | None) -> dict:
    return normalize_with(OPTIONS, options)


def _deal(seed: int) -> list[str]:
    pieces = [k for k, n in COUNTS.items() for _ in range(n)]
    pieces += [p.lower() for p in pieces]
    random.Random(seed).shuffle(pieces)
    return pieces


def new_game(options: dict | None = None, seed: int = 0) -> State:
    o = normalize_options(options)
    board = ("?",) * 32
    return State(board, tuple(_deal(seed)), (None, None), 0, 0, ((board, 0),), o["variant"],
                 o["fog"])


def reseed(state: State, seed: int) -> State:
    """Deal the still-hidden pieces again among the face-down squares."""
    pool = [p for p in state.under if p]
    random.Random(seed).shuffle(pool)
    it = iter(pool)
    under = tuple(next(it) if state.board[sq] == "?" else "" for sq in range(32))
    return state._replace(under=under)


def opens_deal(state: State, move: object) -> bool:
    """A flip of a face-down square while more than one kind of piece lies face down."""
    if not isinstance(move, str) or len(move) != 2:
        return False
    try:
        face_down = state.board[parse_square(move)] == "?"
    except RulesError:
        return False
    return face_down and len({p for p in state.under if p}) > 1


def disclose(state: State, square: str, piece: str) -> State:
    """The same state with `piece` under the face-down `square` (a LAN guest learns each flip
    from the host, which alone holds the deal); RulesError if no such piece is still hidden."""
    sq = parse_square(square)
    if state.board[sq] != "?":
        raise RulesError(f"{square} is not face down")
    under = list(state.under)
    if under[sq] != piece:
        other = next((o for o in range(32) if state.board[o] == "?" and under[o] == piece), None)
        if other is None:
            raise RulesError(f"no {piece!r} is left face down")
        under[sq], under[other] = under[other], under[sq]
    return state._replace(under=tuple(under))


def piece_moves(board, sq: int, variant: str, colour: str) -> list[int]:
    """Targets of the face-up piece on sq (steps, captures, cannon jumps)."""
    piece = board[sq]
    targets = []
    for n in NEIGHBOURS[sq]:
        t = board[n]
        if t == ".":
            targets.append(n)
        elif t not in "?~" and colour_of(t) != colour and can_take(piece, t, variant):
            targets.append(n)
    if variant == "taiwan" and piece.upper() == "C":
        for ray in RAYS[sq]:
            screen = False
            for n in ray:
                t = board[n]
                if t in ".~":
                    continue
                if not screen:
                    screen = True
                    continue
                if t != "?" and colour_of(t) != colour:
                    targets.append(n)
                break
    return targets


def moves_on(board, colour: str | None, variant: str) -> list[str]:
    """Every legal move on a board for the side of this colour (flips included)."""
    moves = [square_name(sq) for sq in range(32) if board[sq] == "?"]
    if colour is None:
        return moves
    for sq in range(32):
        if colour_of(board[sq]) == colour:
            moves.extend(square_name(sq) + square_name(t)
                         for t in piece_moves(board, sq, variant, colour))
    return moves


def legal_moves(state: State) -> list[str]:
    if outcome(state) is not None:
        return []
    return moves_on(state.board, state.colors[state.turn], state.variant)


def legal_moves_from_view(view: dict, options: dict) -> list[str]:
    """The same list, from what the seat to move sees (fog included)."""
    try:
        board = parse_board(view["board"])
        colour = view["colors"][view["to_move"]]
        variant = view["variant"]
    except (KeyError, TypeError, IndexError) as exc:
        raise RulesError(f"not a banqi view: {exc}") from exc
    return moves_on(board, colour, variant)


def _public_key(state: State) -> tuple:
    return (state.board, state.turn)


def outcome(state: State) -> Outcome | None:
    counts = score(state)
    if state.quiet >= QUIET_LIMIT:
        return Outcome(None, counts, Termination.MOVE_LIMIT,
                       Text(N_("{n} moves without a flip or a capture"), {"n": QUIET_LIMIT}))
    key = _public_key(state)
    if sum(1 for k in state.history if k == key) >= 3:
        return Outcome(None, counts, Termination.REPETITION,
                       Text(N_("the same position three times")))
    mover = state.turn
    colour = state.colors[mover]
    if colour is not None:
        mine = any(colour_of(p) == colour for p in state.board) or any(
            colour_of(p) == colour for p in state.under if p)
        if not mine:
            return Outcome(1 - mover, counts, Termination.NO_PIECES,
                           Text(N_("{seat} has no pieces left"), {"seat": Text(SEAT_NAMES[mover])}))
    if not moves_on(state.board, colour, state.variant):
        return Outcome(1 - mover, counts, Termination.NO_MOVES,
                       Text(N_("{seat} has no legal move"), {"seat": Text(SEAT_NAMES[mover])}))
    return None


def score(state: State) -> tuple[int, int]:
    """Pieces each seat still has (face up or down), once colours are known (16 before)."""
    result = []
    for seat in (0, 1):
        colour = state.colors[seat]
        if colour is None:
            result.append(16)
            continue
        n = sum(1 for p in state.board if colour_of(p) == colour)
        n += sum(1 for p in state.under if p and colour_of(p) == colour)
        result.append(n)
    return result[0], result[1]


def to_move(state: State) -> int | None:
    return None if outcome(state) is not None else state.turn


def apply(state: State, move: str) -> State:
    move = move_from_wire(move)
    if outcome(state) is not None:
        raise RulesError("the game is over")
    if move not in legal_moves(state):
        raise RulesError(f"{move} is not legal here")
    board, under = list(state.board), list(state.under)
    colors = state.colors
    if len(move) == 2:
        sq = parse_square(move)
        board[sq], under[sq] = under[sq], ""
        if colors[0] is None:
            mine = colour_of(board[sq])
            other = "black" if mine == "red" else "red"
            colors = (mine, other) if state.turn == 0 else (other, mine)
        irreversible = True
    else:
        a, b = parse_square(move[:2]), parse_square(move[2:])
        irreversible = board[b] != "."
        board[b], board[a] = board[a], "."
    board_t = tuple(board)
    turn = 1 - state.turn
    key = (board_t, turn)
    history = (key,) if irreversible else state.history + (key,)
    return State(board_t, tuple(under), colors, turn, 0 if irreversible else state.quiet + 1,
                 history, state.variant, state.fog, move)


def visible(state: State, seat: int) -> set[int]:
    """The squares a seat sees under the fog: its pieces, where they can go or attack, and every
    face-down piece."""
    colour = state.colors[seat]
    seen = {sq for sq in range(32) if state.board[sq] == "?"}
    if colour is None:
        return set(range(32))
    for sq in range(32):
        piece = state.board[sq]
        if colour_of(piece) != colour:
            continue
        seen.add(sq)
        seen.update(NEIGHBOURS[sq])
        if state.variant == "taiwan" and piece.upper() == "C":
            for ray in RAYS[sq]:
                occupied = 0
                for n in ray:
                    seen.add(n)
                    if state.board[n] != ".":
                        occupied += 1
                        if occupied == 2:
                            break
    return seen


def hidden_counts(state: State) -> dict[str, int]:
    pool = Counter(p for p in state.under if p)
    return {k: pool.get(k, 0) for k in KINDS + KINDS.lower()}


def captured(state: State) -> list[str]:
    """Pieces no longer on the board, in a fixed order."""
    on = Counter(p for p in state.board if p.isalpha()) + Counter(p for p in state.under if p)
    full = Counter({k: n for k, n in COUNTS.items()}) + Counter(
        {k.lower(): n for k, n in COUNTS.items()})
    gone = full - on
    return [p for p in KINDS + KINDS.lower() for _ in range(gone.get(p, 0))]


def board_text(squares) -> str:
    """32 squares as docs/protocol.md's "rank4/rank3/rank2/rank1"."""
    return "/".join("".join(squares[r * FILES:(r + 1) * FILES]) for r in range(RANKS - 1, -1, -1))


def parse_board(text: str) -> tuple[str, ...]:
    """The 32 squares (a1 first) of a board written by board_text; RulesError if malformed."""
    if not isinstance(text, str):
        raise RulesError(f"a banqi board is text 'rank4/rank3/rank2/rank1', not {text!r}")
    ranks = text.split("/")
    if len(ranks) != RANKS or any(len(r) != FILES for r in ranks):
        raise RulesError(f"a banqi board is {RANKS} ranks of {FILES} squares: {text!r}")
    squares = tuple("".join(reversed(ranks)))
    bad = [c for c in squares if c not in ".?~" and c.upper() not in KINDS]
    if bad:
        raise RulesError(f"unknown piece {bad[0]!r} on the board")
    return squares


def view(state: State, seat: int | None) -> dict:
    shown = list(state.board)
    fogged = seat is not None and state.fog and outcome(state) is None
    seen = visible(state, seat) if fogged and seat is not None else set(range(32))
    if fogged:
        shown = [shown[sq] if sq in seen else "~" for sq in range(32)]
    last = state.last
    if last and fogged and seat == state.turn:  # the seat's own last move it always knows
        squares = [parse_square(last[:2])] + ([parse_square(last[2:])] if len(last) == 4 else [])
        if not all(sq in seen for sq in squares):
            last = ""  # the opponent's move happened under the clouds
    v = {"board": board_text(shown), "to_move": state.turn, "colors": list(state.colors),
         "hidden": hidden_counts(state), "quiet_plies": state.quiet, "variant": state.variant,
         "fog": state.fog, "captured": captured(state), "last": last}
    if not fogged:  # positions since the last flip or capture: public, for the repetition rule
        v["history"] = [board_text(b) + f" {t}" for b, t in state.history]
    if seat is None:  # the whole truth, for replays and tests only
        v["under"] = {square_name(sq): p for sq, p in enumerate(state.under) if p}
    return v


def move_to_wire(move: str) -> str:
    return move


def move_from_wire(wire) -> str:
    if not isinstance(wire, str) or len(wire) not in (2, 4):
        raise RulesError(f"a banqi move is 'b3' (flip) or 'b3b4', not {wire!r}")
    parse_square(wire[:2])
    if len(wire) == 4:
        parse_square(wire[2:])
    return wire
