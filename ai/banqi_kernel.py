"""The Banqi search compiled with numba: the board as 32 int8 codes, move generation, make and
unmake in place, the evaluation and the alpha-beta search of ai.banqi.Searcher.negamax, the
same tree in the same order, so the same values. Imported only through ai.compiled (which
points numba's cache at the user's cache folder first); ai/banqi.py drives it and falls back
to its pure-Python search without numba.

A square holds EMPTY, HIDDEN (face down), or a face-up piece: its rank (soldier 1 ... general
7, game.rules.banqi.RANK_OF) for red, the rank + 8 for black. Colours are 0 red, 1 black.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from game.rules.banqi import KINDS, NEIGHBOURS, RANK_OF, RAYS

EMPTY, HIDDEN = 0, 16
SOLDIER, CANNON, GENERAL = RANK_OF["P"], RANK_OF["C"], RANK_OF["K"]
MAX_MOVES = 96  # more than any position has: 16 pieces x 4 steps + 2 cannons x 4 jumps
LOST = -1000.0
INF = 1e9
TT_EXACT, TT_LOWER, TT_UPPER = 0, 1, 2
PASS_MOVE = 32 * 32  # the table's code for the flip seen as a pass (a move is from * 32 + to)

# Zobrist keys: a random number for each code on each square (none for an empty square) and one
# for black to move
_rng = np.random.default_rng(31)
ZOBRIST = _rng.integers(1, 1 << 62, size=(32, 17), dtype=np.int64)
ZOBRIST[:, EMPTY] = 0
SIDE = np.int64(_rng.integers(1, 1 << 62))

# ctl, the search's control block shared with the Python side
STOP, ABORTED, NODES = range(3)
CTL_SIZE = 4

NEIGH = np.full((32, 4), -1, dtype=np.int64)
RAY = np.full((32, 4, 8), -1, dtype=np.int64)
for _sq in range(32):
    NEIGH[_sq, :len(NEIGHBOURS[_sq])] = NEIGHBOURS[_sq]
    for _d, _ray in enumerate(RAYS[_sq]):
        RAY[_sq, _d, :len(_ray)] = _ray


def encode(board: list[str] | tuple[str, ...]) -> np.ndarray:
    """A board of letters (as game.rules.banqi.parse_board gives, no clouds) as int8 codes."""
    out = np.zeros(32, dtype=np.int8)
    for sq, p in enumerate(board):
        if p == "?":
            out[sq] = HIDDEN
        elif p.isalpha():
            out[sq] = RANK_OF[p.upper()] + (0 if p.isupper() else 8)
    return out


def values_of(values: dict[str, int]) -> np.ndarray:
    """A {kind letter: value} table indexed by rank."""
    out = np.zeros(8, dtype=np.float64)
    for kind in KINDS:
        out[RANK_OF[kind]] = values[kind]
    return out


@njit(cache=True, inline="always")
def colour_of(p):
    """0 red, 1 black, -1 for an empty or face-down square."""
    if 1 <= p <= 7:
        return 0
    if 9 <= p <= 15:
        return 1
    return -1


@njit(cache=True, inline="always")
def can_take(a, v, china):
    """Whether rank a may capture rank v by stepping onto it."""
    if not china and a == CANNON:
        return False
    if a == SOLDIER and v == GENERAL:
        return True
    if a == GENERAL and v == SOLDIER:
        return china
    return a >= v


@njit(cache=True)
def gen_moves(board, colour, china, froms, tos):
    """The piece moves (no flips) of colour, in game.rules.banqi.moves_on's order; how many."""
    n = 0
    for sq in range(32):
        p = board[sq]
        if colour_of(p) != colour:
            continue
        a = p & 7
        for k in range(4):
            t = NEIGH[sq, k]
            if t < 0:
                break
            q = board[t]
            if q == EMPTY:
                froms[n] = sq
                tos[n] = t
                n += 1
            elif q != HIDDEN and colour_of(q) != colour and can_take(a, q & 7, china):
                froms[n] = sq
                tos[n] = t
                n += 1
        if not china and a == CANNON:
            for d in range(4):
                screen = False
                for k in range(8):
                    t = RAY[sq, d, k]
                    if t < 0:
                        break
                    q = board[t]
                    if q == EMPTY:
                        continue
                    if not screen:
                        screen = True
                        continue
                    if q != HIDDEN and colour_of(q) != colour:
                        froms[n] = sq
                        tos[n] = t
                        n += 1
                    break
    return n


@njit(cache=True)
def count_moves(board, colour, china):
    """len(moves_on(board, colour)): the flips and the piece moves."""
    froms = np.empty(MAX_MOVES, dtype=np.int64)
    tos = np.empty(MAX_MOVES, dtype=np.int64)
    n = gen_moves(board, colour, china, froms, tos)
    for sq in range(32):
        if board[sq] == HIDDEN:
            n += 1
    return n


@njit(cache=True)
def distance_to_prey(board, colour, china):
    """Sum over enemy face-up pieces of the distance from the nearest own piece that can
    take it (or any own cannon)."""
    total = 0
    for sq in range(32):
        p = board[sq]
        c = colour_of(p)
        if c < 0 or c == colour:
            continue
        near = 1 << 30
        for m in range(32):
            q = board[m]
            if colour_of(q) != colour:
                continue
            if can_take(q & 7, p & 7, china) or (q & 7) == CANNON:
                d = abs(sq // 8 - m // 8) + abs(sq % 8 - m % 8)
                if d < near:
                    near = d
        if near < (1 << 30):
            total += near
    return total


@njit(cache=True)
def evaluate(board, colour, china, vals):
    """ai.banqi.Searcher.evaluate: from the side of colour, which is to move."""
    score = 0.0
    for sq in range(32):
        p = board[sq]
        c = colour_of(p)
        if c == colour:
            score += vals[p & 7]
        elif c >= 0:
            score -= vals[p & 7]
    froms = np.empty(MAX_MOVES, dtype=np.int64)
    tos = np.empty(MAX_MOVES, dtype=np.int64)
    n = gen_moves(board, colour, china, froms, tos)
    best_capture = 0.0
    for i in range(n):
        q = board[tos[i]]
        if q != EMPTY and vals[q & 7] > best_capture:
            best_capture = vals[q & 7]
    score += 0.8 * best_capture
    if score > 0:
        score -= 0.3 * distance_to_prey(board, colour, china)
        score -= 0.2 * count_moves(board, 1 - colour, china)
    return score


@njit(cache=True)
def hash_of(board, colour):
    """The position's key (Zobrist): the pieces on their squares and the side to move."""
    h = np.int64(0)
    for sq in range(32):
        h ^= ZOBRIST[sq, board[sq]]
    if colour == 1:
        h ^= SIDE
    return h


@njit(cache=True, inline="always")
def sort_moves(board, vals, froms, tos, n):
    """Captures of the most valuable first, the rest in generation order (a stable sort); how
    many captures."""
    keys = np.empty(n, dtype=np.float64)
    captures = 0
    for i in range(n):
        q = board[tos[i]]
        keys[i] = vals[q & 7] if q != EMPTY else 0.0
        if q != EMPTY:
            captures += 1
    for i in range(1, n):
        k, f, t = keys[i], froms[i], tos[i]
        j = i - 1
        while j >= 0 and keys[j] < k:
            keys[j + 1], froms[j + 1], tos[j + 1] = keys[j], froms[j], tos[j]
            j -= 1
        keys[j + 1], froms[j + 1], tos[j + 1] = k, f, t
    return captures


@njit("float64(int8[::1], int64, float64, float64, boolean, float64[::1], int64[::1], int64)",
      cache=True, nogil=True)
def quiesce(board, colour, alpha, beta, china, vals, ctl, ply):
    """ai.banqi.Searcher.quiesce: the static value or a capture, searched out."""
    if ctl[STOP] != 0:
        ctl[ABORTED] = 1
        return 0.0
    ctl[NODES] += 1
    froms = np.empty(MAX_MOVES, dtype=np.int64)
    tos = np.empty(MAX_MOVES, dtype=np.int64)
    n = gen_moves(board, colour, china, froms, tos)
    if n == 0:
        hidden = False
        for sq in range(32):
            if board[sq] == HIDDEN:
                hidden = True
                break
        if not hidden:
            return LOST + ply
    best = evaluate(board, colour, china, vals)
    if best >= beta:
        return best
    if best > alpha:
        alpha = best
    captures = sort_moves(board, vals, froms, tos, n)
    for i in range(captures):
        a, b = froms[i], tos[i]
        victim = board[b]
        board[b] = board[a]
        board[a] = EMPTY
        score = -quiesce(board, 1 - colour, -beta, -alpha, china, vals, ctl, ply + 1)
        board[a] = board[b]
        board[b] = victim
        if ctl[ABORTED] != 0:
            return 0.0
        if score > best:
            best = score
        if score > alpha:
            alpha = score
        if alpha >= beta:
            break
    return best


@njit("float64(int8[::1], int64, int64, float64, float64, boolean, float64[::1], int64[::1], "
      "int64[::1], int64, int64, int64, float64, int64[::1], float64[::1], int64[::1])",
      cache=True, nogil=True)
def negamax(board, colour, depth, alpha, beta, china, vals, ctl, keys, top, rev, ply, draw,
            tt_keys, tt_vals, tt_info):
    """ai.banqi.Searcher.negamax on board (made and unmade in place, left as it was). keys[top]
    is this position's hash_of, keys[rev:top] the positions since the last flip or capture
    (written further up as the search goes). tt_*: a transposition table (a power of two
    long; empty: none, the pure search's tree exactly): a position's value and bound at a
    depth, and its best move, tried first. Stopped by ctl[STOP], it sets ctl[ABORTED] and its
    value means nothing."""
    if ctl[STOP] != 0:
        ctl[ABORTED] = 1
        return 0.0
    ctl[NODES] += 1
    h = keys[top]
    for i in range(rev, top):
        if keys[i] == h:
            return draw
    size = tt_keys.shape[0]
    slot = h & (size - 1)
    tt_move = -1
    if size > 0 and depth > 0 and tt_keys[slot] == h:
        info = tt_info[slot]
        tt_move = (info >> 10) - 1
        if info & 255 >= depth:
            v = tt_vals[slot]
            bound = (info >> 8) & 3
            if bound == TT_EXACT or (bound == TT_LOWER and v >= beta) or (
                    bound == TT_UPPER and v <= alpha):
                return v
    hidden = False
    for sq in range(32):
        if board[sq] == HIDDEN:
            hidden = True
            break
    froms = np.empty(MAX_MOVES, dtype=np.int64)
    tos = np.empty(MAX_MOVES, dtype=np.int64)
    n = gen_moves(board, colour, china, froms, tos)
    if not hidden and n == 0:
        return LOST + ply  # no pieces, or none that can move: lost (later is better)
    if depth <= 0:
        return quiesce(board, colour, alpha, beta, china, vals, ctl, ply)
    captures = sort_moves(board, vals, froms, tos, n)
    # the order: the table's move, the captures, the flip (as a pass), the other moves
    total = n + 1 if hidden else n
    seq = np.empty(total, dtype=np.int64)
    k = 0
    first = -2
    if tt_move == PASS_MOVE and hidden:
        first = -1
    elif tt_move >= 0:
        for i in range(n):
            if froms[i] * 32 + tos[i] == tt_move:
                first = i
                break
    if first != -2:
        seq[0] = first
        k = 1
    for i in range(captures):
        if i != first:
            seq[k] = i
            k += 1
    if hidden and first != -1:
        seq[k] = -1
        k += 1
    for i in range(captures, n):
        if i != first:
            seq[k] = i
            k += 1
    alpha0 = alpha
    best = -INF
    best_move = -1
    for j in range(total):
        i = seq[j]
        if i < 0:  # a flip, seen as a pass: a new run of positions
            keys[top + 1] = h ^ SIDE
            score = -negamax(board, 1 - colour, depth - 1, -beta, -alpha, china, vals, ctl,
                             keys, top + 1, top + 1, ply + 1, -draw, tt_keys, tt_vals, tt_info)
        else:
            a, b = froms[i], tos[i]
            victim = board[b]
            p = board[a]
            board[b] = p
            board[a] = EMPTY
            keys[top + 1] = h ^ ZOBRIST[a, p] ^ ZOBRIST[b, victim] ^ ZOBRIST[b, p] ^ SIDE
            score = -negamax(board, 1 - colour, depth - 1, -beta, -alpha, china, vals, ctl,
                             keys, top + 1, top + 1 if victim != EMPTY else rev, ply + 1, -draw,
                             tt_keys, tt_vals, tt_info)
            board[a] = p
            board[b] = victim
        if ctl[ABORTED] != 0:
            return 0.0
        if score > best:
            best = score
            best_move = PASS_MOVE if i < 0 else froms[i] * 32 + tos[i]
        if score > alpha:
            alpha = score
        if alpha >= beta:
            break
    if size > 0:
        bound = TT_UPPER if best <= alpha0 else TT_LOWER if best >= beta else TT_EXACT
        tt_keys[slot] = h
        tt_vals[slot] = best
        tt_info[slot] = depth | (bound << 8) | ((best_move + 1) << 10)
    return best


def new_table(bits: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An empty transposition table of 2**bits entries (bits < 0: none)."""
    size = 0 if bits < 0 else 1 << bits
    return (np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.float64),
            np.zeros(size, dtype=np.int64))


def new_ctl() -> np.ndarray:
    return np.zeros(CTL_SIZE, dtype=np.int64)


def moves(board: list[str], colour: int, china: bool) -> list[tuple[int, int]]:
    """The piece moves as (from, to) squares (tests)."""
    froms = np.empty(MAX_MOVES, dtype=np.int64)
    tos = np.empty(MAX_MOVES, dtype=np.int64)
    n = gen_moves(encode(board), colour, china, froms, tos)
    return [(int(froms[i]), int(tos[i])) for i in range(n)]


def warm() -> None:
    """Compiles (or loads from the cache) every function on a small position."""
    board = encode(["?"] * 28 + ["K", "c", "P", "k"])
    vals = np.arange(8, dtype=np.float64)
    for china in (False, True):
        moves(list("?" * 28 + "KcPk"), 0, china)
        count_moves(board, 1, china)
        evaluate(board, 0, china, vals)
        keys = np.zeros(8, dtype=np.int64)
        keys[0] = hash_of(board, 0)
        for bits in (-1, 4):
            negamax(board, 0, 2, -1e9, 1e9, china, vals, new_ctl(), keys, 0, 0, 0, 0.0,
                    *new_table(bits))
