"""The Ataxx search compiled with numba: uint64 bitboards, move generation, make, perft and a
principal variation search with a transposition table, killers, history, late-move
reductions and null-move pruning, each switched from the control block, as are the
evaluation's weights (so a bench can play one setting against another). Imported only through
ai.compiled (which points numba's cache at the user's cache folder first); ai/ataxx.py drives
it and falls back to its pure-Python search without numba.

Positions are (own, opp) from the side to move, so one table entry serves both colours.
A move is an int: a clone is its target square, a jump (from + 1) * 64 + to; -1 is none.
"""

from __future__ import annotations

import zipfile

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from ai import ataxx_nnue as nnue
from ai import ataxx_patterns as patterns
from game.rules.ataxx import ALL as _ALL
from game.rules.ataxx import DRAW_HALFMOVES
from game.rules.ataxx import FAR as _FAR
from game.rules.ataxx import FILE_A as _FILE_A
from game.rules.ataxx import FILE_G as _FILE_G
from game.rules.ataxx import NEAR as _NEAR

U = np.uint64
U0, U1, U7 = U(0), U(1), U(7)
ALL = U(_ALL)
NOT_A = U(_ALL & ~_FILE_A)
NOT_G = U(_ALL & ~_FILE_G)
NEAR = np.array(_NEAR, dtype=np.uint64)
FAR = np.array(_FAR, dtype=np.uint64)
HALF_LIMIT = DRAW_HALFMOVES

WIN = 100_000
INF = 2 * WIN
MATE_ZONE = WIN - 1000
EXACT, LOWER, UPPER = 0, 1, 2
NO_MOVE = -1
MAX_PLY = 128
MAX_MOVES = 1024  # more than any position has (at most 45 clones and 16 jumps a stone)
TT_BITS = 20
K1 = U(0x9E3779B97F4A7C15)
K2 = U(0xC2B2AE3D27D4EB4F)
SH = U(64 - TT_BITS)

# ctl, the search's control block, shared with the Python side: flags, counters and the
# evaluation's weights (W_*), set by the caller before each search.
(STOP, NODES, ABORTED, NODE_LIMIT, BEST, LMR, SELDEPTH, NULL_MOVE,
 W_FRONT, W_MOB, W_TEMPO, W_EDGE, W_CORNER, FUTILITY, W_MATERIAL, PATTERNS,
 LMP, TT_SCHEME, AGE, IIR, HIST, NNUE, ROOT_X, NN_BIAS_X, NN_BIAS_O, NN_K, SINGULAR,
 MARGINS, NN_UNITS_X, NN_UNITS_O) = range(30)
CTL_SIZE = 30
# NNUE: the network (ai/ataxx_nnue.py) evaluates in place of the hand-made terms and patterns,
# its accumulator kept per ply; ROOT_X: the root's side to move is x (the accumulator is in
# absolute colours); NN_BIAS_*, NN_K: the network's output biases and points a logit;
# NN_UNITS_*: the units each output reads, first and last + 1 packed (ai.ataxx_nnue.units).
# LMP: late-move pruning as Zataxx does it: past the first two moves of a node (not the root,
# not when every move so far loses) of at most ctl[LMP] plies to go, a jump that takes no stone
# is not searched (Zataxx: at every depth).
# TT_SCHEME: 0 one slot a position, always replaced; 1 buckets of two slots: a position
# overwrites its own entry, else the shallower slot, an earlier search's entry counting
# AGE_PENALTY plies less (so deep entries outlive the many shallow ones, but not forever).
# AGE: this search's number (1..63) in the entries it writes.
# IIR: internal iterative reduction: a node with no table move and at least ctl[IIR] plies to
# go (0: never) is searched a ply shallower.
# HIST: history by side to move with a bonus for the cut move and a malus for the moves
# tried before it, bounded (HIST_MAX), and read by the late-move reductions.
# SINGULAR: singular extensions as Zataxx makes them: at a node of SE_DEPTH plies or more whose
# table entry is deep enough and not an upper bound, the other moves are searched half as deep
# against the entry's score less SE_MARGIN a ply; if none comes near, the table's move is
# searched a ply deeper; if they still beat beta, the node is cut (multicut); if only the entry
# did, the table's move is searched a ply shallower.
SE_DEPTH, SE_TT_SLACK, SE_MARGIN = 6, 3, 1
# marks[ply]: 0 a null move led to this ply (no two in a row); 1 the move a singular search at
# this ply leaves out (NO_MOVE: none, a normal node).
NULL_MARK, EXCLUDED = 0, 1
HIST_MAX, HIST_BONUS, HIST_BONUS_MAX, HIST_LMR_DIV = 16384, 300, 1500, 12288
AGE_PENALTY = 6
HIST_SIDE = 64 * 50  # one side's history: the move's int is below (48 + 1) * 64 + 64
NULL_R = 2  # depth a null move saves
# LMR=2's reductions by depth and move index, log-shaped as in Zataxx (0.8 + 0.4 ln d ln i),
# truncated; LMR=3 rounds them as Zataxx does (half a ply more on average).
_D, _I = np.meshgrid(np.arange(64), np.arange(256), indexing="ij")
_LOG_LMR = np.where((_D > 0) & (_I > 0),
                    0.8 + 0.4 * np.log(np.maximum(_D, 1)) * np.log(np.maximum(_I, 1)), 0)
LMR_TABLE = _LOG_LMR.astype(np.int64)
LMR_ROUND = np.rint(_LOG_LMR).astype(np.int64)
RFP_MARGIN, RFP_DEPTH = 50, 6  # reverse futility: a static eval this far over beta stands
FP_BASE, FP_STEP, FP_DEPTH = 160, 80, 6  # futility: late moves of a hopeless node are skipped
# MARGINS: both futility margins in percent of the above (Zataxx's values; its scores run
# larger than the network's, yet 60% lost clearly and 150% gained nothing: README).

_RIMS = 0x7F | (0x7F << 42) | _FILE_A | _FILE_G
EDGE = U(_RIMS)  # a stone on the rim has fewer neighbours to be taken from
CORNER = U(1 | (1 << 6) | (1 << 42) | (1 << 48))
# The weights the search plays with (index: W_* slot); rim and corner stay 0 and tempo 20:
# bench/ataxx_selfplay.py found no gain in edge=10,corner=20 (-23 ± 60) or tempo=100 (-12 ± 61).
WEIGHTS = {W_MATERIAL: 100, W_FRONT: 4, W_MOB: 3, W_TEMPO: 20, W_EDGE: 0, W_CORNER: 0}
# The learned evaluation (ai/ataxx_patterns.py): its windows, and its own weights for the
# hand-made terms, used when ctl[PATTERNS] is set.
WIN_SHIFT, WIN_CLASS, WIN_TURN = patterns.SHIFT, patterns.CLASS, patterns.TURN
TERNARY = patterns.TERNARY
SPAN, PAT_SCALE = patterns.EMPTY_SPAN, patterns.SCALE
U14 = U(14)
LEARNED_SLOTS = {"material": W_MATERIAL, "front": W_FRONT, "mobility": W_MOB, "tempo": W_TEMPO}
NN_CORNERS = U(nnue.CORNER_MASK)
NN_WINDOW, NN_QUAD, NN_STATES = nnue.WINDOW_OF, nnue.QUAD, nnue.STATES
NN_BIAS_ROW, NN_OUT_ROW, QA, QB = nnue.BIAS_ROW, nnue.OUT_ROW, nnue.QA, nnue.QB
U3, U2 = U(3), U(2)


@intrinsic
def popcount(typingctx, x):
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def prefetch(typingctx, arr, i):
    """Asks the processor to bring arr[i]'s cache line in (no effect on the program)."""
    sig = types.void(arr, i)

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        ptr = builder.bitcast(builder.gep(ary.data, [args[1]]), i8p)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = builder.module.declare_intrinsic("llvm.prefetch", [i8p], fnty)
        builder.call(fn, [ptr, i32(0), i32(3), i32(1)])  # a read, kept in every cache level
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def lowest(typingctx, x):
    """The index of the lowest set bit (x != 0)."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@njit(cache=True)
def spread(b):
    """Every square next to a stone of b."""
    row = b | ((b & NOT_A) >> U1) | ((b & NOT_G) << U1)
    return (row | (row << U7) | (row >> U7)) & ALL


@njit(cache=True)
def can_move(own, empty):
    """A clone or a jump reaches an empty square: the 5x5 box around own touches one."""
    return (spread(spread(own)) & empty) != U0


@njit(cache=True)
def can_shuffle(own, opp, gaps):
    """Whether own, to move while opp has no move, has a jump after which opp still has none:
    own may then jump to and fro, opp passing, until the clone rule draws the game (or fill a
    square and end it, whichever own likes). A jump back leaves opp no more stones and the
    same empty squares, so one such jump is enough."""
    empty = ALL & ~(own | opp | gaps)
    f = own
    while f:
        fr = lowest(f)
        f &= f - U1
        t = FAR[fr] & empty
        while t:
            to = lowest(t)
            t &= t - U1
            after = (empty & ~(U1 << U(to))) | (U1 << U(fr))
            if not can_move(opp & ~NEAR[to], after):
                return True
    return False


@njit(cache=True)
def generate(own, opp, gaps, out, row):
    """Writes every move of own into out[row] and returns how many (0: none, a pass or over)."""
    empty = ALL & ~(own | opp | gaps)
    n = 0
    t = spread(own) & empty
    while t:
        out[row, n] = lowest(t)
        n += 1
        t &= t - U1
    f = own
    while f:
        fr = lowest(f)
        f &= f - U1
        t = FAR[fr] & empty
        base = (fr + 1) * 64
        while t:
            out[row, n] = base + lowest(t)
            n += 1
            t &= t - U1
    return n


@njit(cache=True)
def play(own, opp, m):
    """(own, opp) after move m, still from the mover's side."""
    to = m & 63
    cap = NEAR[to] & opp
    own = own | (U1 << U(to)) | cap
    if m >= 64:
        own ^= U1 << U((m >> 6) - 1)
    return own, opp ^ cap


@njit("int64(uint64, uint64, uint64, int64, int64, int64[:, ::1], int64)", cache=True)
def perft(own, opp, gaps, half, depth, out, row):
    """libataxx's perft: a pass counts as a move, a finished game has none."""
    if depth <= 0:
        return 1
    if own == U0 or opp == U0 or half >= HALF_LIMIT:
        return 0
    n = generate(own, opp, gaps, out, row)
    if n == 0:
        if not can_move(opp, ALL & ~(own | opp | gaps)):
            return 0
        if depth == 1:
            return 1
        return perft(opp, own, gaps, half + 1, depth - 1, out, row + 1)
    if depth == 1:
        return n
    total = 0
    for i in range(n):
        m = out[row, i]
        a, b = play(own, opp, m)
        total += perft(b, a, gaps, 0 if m < 64 else half + 1, depth - 1, out, row + 1)
    return total


@njit(cache=True)
def learned(own, opp, empties, tables):
    """The pattern part: each window's opening and end values, blended by the empties."""
    early = 0
    late = 0
    for w in range(25):
        sh = WIN_SHIFT[w]
        mo = ((own >> sh) & U7) | (((own >> (sh + U7)) & U7) << U(3)) \
            | (((own >> (sh + U14)) & U7) << U(6))
        mp = ((opp >> sh) & U7) | (((opp >> (sh + U7)) & U7) << U(3)) \
            | (((opp >> (sh + U14)) & U7) << U(6))
        t = WIN_TURN[w]
        idx = TERNARY[t, mo] + 2 * TERNARY[t, mp]
        c = WIN_CLASS[w]
        early += tables[0, c, idx]
        late += tables[1, c, idx]
    a = min(empties, SPAN)
    return (early * a + late * (SPAN - a)) // (SPAN * PAT_SCALE)


@njit(cache=True)
def evaluate(own, opp, gaps, ctl, tables):
    """From the side to move: material, stones exposed to capture, room to clone, stones on
    the rim and in the corners, the move in hand and, with ctl[PATTERNS], the learned
    patterns; weights from ctl."""
    empty = ALL & ~(own | opp | gaps)
    near_empty = spread(empty)
    material = popcount(own) - popcount(opp)
    front = popcount(near_empty & opp) - popcount(near_empty & own)
    mobility = popcount(spread(own) & empty) - popcount(spread(opp) & empty)
    rim = popcount(own & EDGE) - popcount(opp & EDGE)
    corner = popcount(own & CORNER) - popcount(opp & CORNER)
    score = (ctl[W_MATERIAL] * material + ctl[W_FRONT] * front + ctl[W_MOB] * mobility
             + ctl[W_TEMPO] + ctl[W_EDGE] * rim + ctl[W_CORNER] * corner)
    if ctl[PATTERNS] != 0:
        score += learned(own, opp, popcount(empty), tables)
    return score


@njit(cache=True)
def nn_state(x, o, s):
    """The input of the window whose lowest square is s (ai/ataxx_nnue.py)."""
    sh = U(s)
    mx = ((x >> sh) & U3) | (((x >> (sh + U7)) & U3) << U2)
    mo = ((o >> sh) & U3) | (((o >> (sh + U7)) & U3) << U2)
    return NN_WINDOW[s] * NN_STATES + NN_QUAD[mx] + 2 * NN_QUAD[mo]


@njit(cache=True)
def nn_refresh(acc, row, x, o, net):
    """acc[row] from nothing: the bias plus every window's input."""
    hidden = acc.shape[1]
    for h in range(hidden):
        acc[row, h] = net[NN_BIAS_ROW, h]
    w = NN_CORNERS
    while w:
        f = nn_state(x, o, lowest(w))
        w &= w - U1
        for h in range(hidden):
            acc[row, h] += net[f, h]


@njit(cache=True)
def nn_update(acc, row, x0, o0, x1, o1, net):
    """acc[row + 1] from acc[row] for the move that took (x0, o0) to (x1, o1): only the windows
    holding a changed square change."""
    hidden = acc.shape[1]
    for h in range(hidden):
        acc[row + 1, h] = acc[row, h]
    d = (x0 ^ x1) | (o0 ^ o1)
    w = (d | (d >> U1) | (d >> U7) | (d >> U(8))) & NN_CORNERS
    while w:
        s = lowest(w)
        w &= w - U1
        old = nn_state(x0, o0, s)
        new = nn_state(x1, o1, s)
        if old != new:
            for h in range(hidden):
                acc[row + 1, h] += net[new, h] - net[old, h]


@njit(cache=True)
def own_is_x(ply, ctl):
    return ((ctl[ROOT_X] + ply) & 1) == 1


@njit(cache=True)
def advance(acc, ply, own, opp, a, b, ctl, net):
    """The child's accumulator after own, opp became a, b (the mover's side), if the network
    plays; a pass (a == own) copies it."""
    if ctl[NNUE] == 0:
        return
    if own_is_x(ply, ctl):
        nn_update(acc, ply, own, opp, a, b, net)
    else:
        nn_update(acc, ply, opp, own, b, a, net)


@njit(cache=True)
def nn_evaluate(acc, ply, ctl, net):
    """The network's score for the side to move at ply: SCReLU units into its side's output."""
    x = own_is_x(ply, ctl)
    row = NN_OUT_ROW if x else NN_OUT_ROW + 1
    bias = ctl[NN_BIAS_X] if x else ctl[NN_BIAS_O]
    units = ctl[NN_UNITS_X] if x else ctl[NN_UNITS_O]
    first, end = units >> 16, units & 0xFFFF
    a, w = acc[ply, first:end], net[row, first:end]
    total = 0
    for h in range(end - first):  # from 0: numba drops its negative-index checks, and vectorizes
        v = min(max(np.int64(a[h]), 0), QA)
        total += v * v * w[h]
    return (total // QA + bias) * ctl[NN_K] // (QA * QB)


@njit(cache=True)
def assess(own, opp, gaps, ply, ctl, pat, net, acc):
    """The evaluation the search plays with: the network's if it plays, else evaluate()."""
    if ctl[NNUE] != 0:
        return max(-MATE_ZONE + 1, min(MATE_ZONE - 1, nn_evaluate(acc, ply, ctl, net)))
    return evaluate(own, opp, gaps, ctl, pat)


@njit(cache=True)
def final(own, opp, ply):
    margin = popcount(own) - popcount(opp)
    if margin > 0:
        return WIN - ply + margin
    if margin < 0:
        return -WIN + ply + margin
    return 0


@njit(cache=True)
def slot(own, opp):
    return np.int64(((own * K1) ^ (opp * K2) ^ ((own ^ opp) >> U(29))) * K1 >> SH)


@njit(cache=True)
def probe(own, opp, tt_own, tt_opp, idx, scheme):
    """The table index holding (own, opp), -1 if none: idx itself, or with scheme 1 either
    slot of idx's bucket."""
    if scheme == 0:
        return idx if tt_own[idx] == own and tt_opp[idx] == opp else -1
    b = idx & ~np.int64(1)
    for j in (b, b + 1):
        if tt_own[j] == own and tt_opp[j] == opp:
            return j
    return -1


@njit(cache=True)
def victim(tt_data, idx, hit, scheme, age):
    """Where an entry for idx's position goes: with scheme 0 idx; with scheme 1 its own slot
    if it has one (hit), else the bucket's shallower slot, an earlier search's entry counted
    AGE_PENALTY plies shallower."""
    if scheme == 0:
        return idx
    if hit >= 0:
        return hit
    b = idx & ~np.int64(1)
    d0, d1 = tt_data[b], tt_data[b + 1]
    v0 = ((d0 >> 16) & 0xFF) - (AGE_PENALTY if ((d0 >> 26) & 63) != age else 0)
    v1 = ((d1 >> 16) & 0xFF) - (AGE_PENALTY if ((d1 >> 26) & 63) != age else 0)
    return b if v0 <= v1 else b + 1


@njit(cache=True)
def order(own, opp, moves, keys, row, n, tt_move, killers, history, hb):
    """Ordering keys: the table's move, then stones won (a clone's new stone, a jump's hole),
    killers and history (this side's: from history[hb]))."""
    for i in range(n):
        m = moves[row, i]
        if m == tt_move:
            keys[row, i] = 1 << 40
            continue
        to = m & 63
        gain = 10 * popcount(NEAR[to] & opp)
        if m < 64:
            gain += 10
        else:
            gain -= 3 * popcount(NEAR[(m >> 6) - 1] & own)
        k = (gain + 40) * 10_000_000 + history[hb + m]
        if m == killers[row, 0]:
            k += 50_000_000
        elif m == killers[row, 1]:
            k += 40_000_000
        keys[row, i] = k


@njit(cache=True)
def pick(moves, keys, row, i, n):
    """Moves the best remaining move to index i (a selection sort done lazily)."""
    best, bk = i, keys[row, i]
    for j in range(i + 1, n):
        if keys[row, j] > bk:
            best, bk = j, keys[row, j]
    if best != i:
        m = moves[row, i]
        moves[row, i] = moves[row, best]
        moves[row, best] = m
        k = keys[row, i]
        keys[row, i] = keys[row, best]
        keys[row, best] = k
    return moves[row, i]


# Recursive functions get their types up front: numba cannot load an inferred recursive
# function from its cache. Without numba's reference counts (_nrt=False; it makes no array):
# with them every node counted each of its 12 arrays up on entry and down on return, atomic
# operations that took a sixth of the search's time. The caller's Tables keep them alive.
@njit("int64(uint64, uint64, uint64, int64, int64, int64, int64, int64, uint64[::1], "
      "uint64[::1], int64[::1], int64[:, ::1], int64[:, ::1], int64[:, ::1], int64[::1], "
      "int64[:, ::1], int64[::1], int32[:, :, ::1], int16[:, ::1], int16[:, ::1])", cache=True,
      _nrt=False)
def negamax(own, opp, gaps, half, depth, alpha, beta, ply,
            tt_own, tt_opp, tt_data, moves, keys, killers, history, marks, ctl, pat, net, acc):
    ctl[NODES] += 1
    if (ctl[NODES] & 1023) == 0:
        if ctl[STOP] != 0 or (ctl[NODE_LIMIT] > 0 and ctl[NODES] >= ctl[NODE_LIMIT]):
            ctl[ABORTED] = 1
    if ctl[ABORTED] != 0:
        return 0
    if ply > ctl[SELDEPTH]:
        ctl[SELDEPTH] = ply
    if own == U0 or opp == U0:
        return final(own, opp, ply)
    if half >= HALF_LIMIT:
        return 0
    empty = ALL & ~(own | opp | gaps)
    if empty == U0:
        return final(own, opp, ply)
    if depth <= 0 or ply >= MAX_PLY - 1:
        return assess(own, opp, gaps, ply, ctl, pat, net, acc)

    idx = slot(own, opp) & (tt_own.shape[0] - 1)  # a test's table may be smaller
    scheme = ctl[TT_SCHEME]
    hit = probe(own, opp, tt_own, tt_opp, idx, scheme)
    tt_move = NO_MOVE
    excluded = marks[ply, EXCLUDED]
    e_depth, e_flag, e_score = 0, UPPER, 0
    if hit >= 0:
        d = tt_data[hit]
        e_depth = (d >> 16) & 0xFF
        e_flag = (d >> 24) & 3
        tt_move = np.int64(np.int16(d & 0xFFFF))
        e_score = np.int64(np.int32(d >> 32))
        if e_score > MATE_ZONE:
            e_score -= ply
        elif e_score < -MATE_ZONE:
            e_score += ply
        if ply > 0 and e_depth >= depth and half < HALF_LIMIT - 20 and excluded == NO_MOVE:
            if e_flag == EXACT:
                return e_score
            if e_flag == LOWER and e_score >= beta:
                return e_score
            if e_flag == UPPER and e_score <= alpha:
                return e_score

    if ctl[IIR] != 0 and tt_move == NO_MOVE and depth >= ctl[IIR]:
        depth -= 1

    pv = beta - alpha > 1
    static = 0
    futile = ctl[FUTILITY] != 0 and ply > 0 and depth <= FP_DEPTH and abs(alpha) < MATE_ZONE \
        and abs(beta) < MATE_ZONE
    margins = ctl[MARGINS]
    if futile:
        static = assess(own, opp, gaps, ply, ctl, pat, net, acc)
        if not pv and depth <= RFP_DEPTH and static - RFP_MARGIN * depth * margins // 100 >= beta \
                and excluded == NO_MOVE:
            return static

    # Null move: if passing still holds beta, a real move will too. Passes are legal in Ataxx
    # but forced only without a move, and zugzwang is rare; never two nulls in a row, never in
    # a principal variation, never near a mate score or with few stones left.
    marks[ply + 1, NULL_MARK] = 0
    if ctl[NULL_MOVE] != 0 and ply > 0 and depth > NULL_R and beta - alpha == 1 \
            and excluded == NO_MOVE \
            and marks[ply, NULL_MARK] == 0 and abs(beta) < MATE_ZONE and popcount(own) > 4 \
            and assess(own, opp, gaps, ply, ctl, pat, net, acc) >= beta:
        marks[ply + 1, NULL_MARK] = 1
        advance(acc, ply, own, opp, own, opp, ctl, net)
        score = -negamax(opp, own, gaps, half + 1, depth - 1 - NULL_R, -beta, -beta + 1,
                         ply + 1, tt_own, tt_opp, tt_data, moves, keys, killers, history,
                         marks, ctl, pat, net, acc)
        marks[ply + 1, NULL_MARK] = 0
        if ctl[ABORTED] != 0:
            return 0
        if score >= beta:
            return beta

    extension = 0
    if ctl[SINGULAR] != 0 and excluded == NO_MOVE and not pv and ply > 0 \
            and depth >= SE_DEPTH and tt_move != NO_MOVE and abs(e_score) < MATE_ZONE \
            and e_depth >= depth - SE_TT_SLACK and e_flag != UPPER:
        s_beta = e_score - SE_MARGIN * depth
        marks[ply, EXCLUDED] = tt_move
        score = negamax(own, opp, gaps, half, (depth - 1) // 2, s_beta - 1, s_beta, ply,
                        tt_own, tt_opp, tt_data, moves, keys, killers, history, marks, ctl,
                        pat, net, acc)
        marks[ply, EXCLUDED] = NO_MOVE
        if ctl[ABORTED] != 0:
            return 0
        if score < s_beta:
            extension = 1
        elif s_beta >= beta:
            return s_beta
        elif e_score >= beta:
            extension = -1

    n = generate(own, opp, gaps, moves, ply)
    if n == 0:
        if not can_move(opp, empty):
            return final(own, opp, ply)
        advance(acc, ply, own, opp, own, opp, ctl, net)
        score = -negamax(opp, own, gaps, half + 1, depth - 1, -beta, -alpha, ply + 1, tt_own,
                         tt_opp, tt_data, moves, keys, killers, history, marks, ctl, pat, net,
                         acc)
        # Stones ahead are no win while the opponent can jump to and fro past the clone
        # rule's horizon: it holds a draw at least (an engine drew a 28-20 game so).
        if score > 0 and can_shuffle(opp, own, gaps):
            return 0
        return score

    hist = ctl[HIST] != 0
    hb = (ply & 1) * HIST_SIDE if hist else 0
    order(own, opp, moves, keys, ply, n, tt_move, killers, history, hb)
    original_alpha = alpha
    best, best_move = -INF, NO_MOVE
    lmr = ctl[LMR]
    reductions = LMR_ROUND if lmr == 3 else LMR_TABLE
    lmp = ply > 0 and depth <= ctl[LMP]
    for i in range(n):
        if futile and i >= 3 and static + (FP_BASE + FP_STEP * depth) * margins // 100 <= alpha:
            break
        m = pick(moves, keys, ply, i, n)
        if m == excluded:
            continue
        if lmp and i >= 2 and m >= 64 and best > -MATE_ZONE and (NEAR[m & 63] & opp) == U0:
            continue
        a, b = play(own, opp, m)
        if depth > 1:  # the child's table entry, fetched while its accumulator is made
            child = slot(b, a) & (tt_own.shape[0] - 1)
            prefetch(tt_own, child)
            prefetch(tt_opp, child)
            prefetch(tt_data, child)
        advance(acc, ply, own, opp, a, b, ctl, net)
        child_half = 0 if m < 64 else half + 1
        if i == 0:
            score = -negamax(b, a, gaps, child_half, depth - 1 + (extension if m == tt_move
                                                                  else 0),
                             -beta, -alpha, ply + 1,
                             tt_own, tt_opp, tt_data, moves, keys, killers, history, marks,
                             ctl, pat, net, acc)
        else:
            r = 0
            if lmr == 1 and depth >= 3 and i >= 4 and m != killers[ply, 0] \
                    and m != killers[ply, 1]:
                r = 1 if i < 12 or depth < 5 else 2
            elif lmr >= 2 and depth >= 3 and i >= 2:
                r = reductions[min(depth, 63), min(i + 1, 255)] - (1 if pv else 0)
                if hist:
                    r -= (2 * history[hb + m] + HIST_LMR_DIV) // (2 * HIST_LMR_DIV)
                r = max(0, min(r, depth - 2))
            score = -negamax(b, a, gaps, child_half, depth - 1 - r, -alpha - 1, -alpha,
                             ply + 1, tt_own, tt_opp, tt_data, moves, keys, killers, history,
                             marks, ctl, pat, net, acc)
            if r > 0 and score > alpha:
                score = -negamax(b, a, gaps, child_half, depth - 1, -alpha - 1, -alpha,
                                 ply + 1, tt_own, tt_opp, tt_data, moves, keys, killers,
                                 history, marks, ctl, pat, net, acc)
            if alpha < score < beta:
                score = -negamax(b, a, gaps, child_half, depth - 1, -beta, -alpha, ply + 1,
                                 tt_own, tt_opp, tt_data, moves, keys, killers, history,
                                 marks, ctl, pat, net, acc)
        if ctl[ABORTED] != 0:
            return 0
        if score > best:
            best, best_move = score, m
        if score > alpha:
            alpha = score
            if ply == 0:
                ctl[BEST] = m  # a move that beat the rest so far, kept if time runs out
        if alpha >= beta:
            if m != killers[ply, 0]:
                killers[ply, 1] = killers[ply, 0]
                killers[ply, 0] = m
            if hist:
                bonus = min(depth * HIST_BONUS, HIST_BONUS_MAX)
                history[hb + m] += bonus - bonus * history[hb + m] // HIST_MAX
                for j in range(i):
                    q = hb + moves[ply, j]
                    history[q] += -bonus - bonus * history[q] // HIST_MAX
            else:
                history[m] = min(history[m] + depth * depth, 9_000_000)
            break

    if excluded != NO_MOVE:
        return best  # a singular search's bound, not this node's value: not stored
    if ply == 0 and best_move != NO_MOVE:
        ctl[BEST] = best_move
    flag = EXACT if original_alpha < best < beta else (LOWER if best >= beta else UPPER)
    stored = best
    if stored > MATE_ZONE:
        stored += ply
    elif stored < -MATE_ZONE:
        stored -= ply
    age = ctl[AGE]
    j = victim(tt_data, idx, hit, scheme, age)
    tt_own[j] = own
    tt_opp[j] = opp
    tt_data[j] = (np.int64(stored) << 32) | (age << 26) | (flag << 24) \
        | (min(depth, 255) << 16) | (best_move & 0xFFFF)
    return best


@njit(cache=True, nogil=True)
def root(own, opp, gaps, half, depth, alpha, beta,
         tt_own, tt_opp, tt_data, moves, keys, killers, history, marks, ctl, pat, net, acc):
    """One iteration at the root; the best move goes to ctl[BEST]. The caller checks
    ctl[ABORTED] before trusting the result. Runs without the GIL."""
    if ctl[NNUE] != 0:
        if ctl[ROOT_X] != 0:
            nn_refresh(acc, 0, own, opp, net)
        else:
            nn_refresh(acc, 0, opp, own, net)
    return negamax(own, opp, gaps, half, depth, alpha, beta, 0, tt_own, tt_opp, tt_data,
                   moves, keys, killers, history, marks, ctl, pat, net, acc)


@njit(cache=True, nogil=True)
def root_move(own, opp, tt_own, tt_opp, tt_data):
    """The table's move for a position (the root's best after root()), in either slot of
    its bucket."""
    hit = probe(own, opp, tt_own, tt_opp, slot(own, opp) & (tt_own.shape[0] - 1), 1)
    if hit >= 0:
        return np.int64(np.int16(tt_data[hit] & 0xFFFF))
    return NO_MOVE


@njit(cache=True, nogil=True)
def perft_root(own, opp, gaps, half, depth):
    out = np.empty((max(depth, 1) + 1, MAX_MOVES), dtype=np.int64)
    return perft(own, opp, gaps, half, depth, out, 0)


@njit(cache=True, nogil=True)
def moves_root(own, opp, gaps):
    out = np.empty((1, MAX_MOVES), dtype=np.int64)
    n = generate(own, opp, gaps, out, 0)
    return out[0, :n].copy()


LEARNED = patterns.load()  # (tables, weights) of ai/data/ataxx_patterns.npz


def shipped_network(path: str = nnue.DATA) -> nnue.Net | None:
    """The network of path, or None (the patterns evaluate) if the file is missing, damaged
    or of another shape: a bad file must not cost the whole compiled search."""
    try:
        return nnue.load(path)
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None


NETWORK = shipped_network()  # ai/data/ataxx_nnue.npz
_NO_NET = np.zeros((1, 1), dtype=np.int16)


class Tables:
    """One search's working arrays, a transposition table it keeps between moves, and the
    learned evaluations it plays with (a bench may give others: patterns.load(path),
    nnue.load(path))."""

    def __init__(self, tt_bits: int = TT_BITS, evaluation: tuple | None = None,
                 network: nnue.Net | None = None):
        assert 1 <= tt_bits <= TT_BITS
        self.pat, self.learned_weights = evaluation or LEARNED
        self.network = network or NETWORK
        self.net = self.network.rows if self.network is not None else _NO_NET
        # the units each output reads, packed as the kernel's ctl holds them
        self.units = [first << 16 | end for first, end in nnue.units(self.network)] \
            if self.network is not None else [0, 0]
        self.acc = np.zeros((MAX_PLY + 1, self.net.shape[1]), dtype=np.int16)
        size = 1 << tt_bits
        self.tt_own = np.zeros(size, dtype=np.uint64)
        self.tt_opp = np.zeros(size, dtype=np.uint64)
        self.tt_data = np.zeros(size, dtype=np.int64)
        self.moves = np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int64)
        self.keys = np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int64)
        self.killers = np.full((MAX_PLY, 2), NO_MOVE, dtype=np.int64)
        self.history = np.zeros(2 * HIST_SIDE, dtype=np.int64)
        self.searches = 0  # numbers the searches, for the table's ages
        self.marks = np.zeros((MAX_PLY + 1, 2), dtype=np.int64)
        self.ctl = np.zeros(CTL_SIZE, dtype=np.int64)

    def clear(self) -> None:
        self.tt_own[:] = 0
        self.tt_opp[:] = 0
        self.tt_data[:] = 0
        self.history[:] = 0
        self.new_search()

    def new_search(self, learned: bool = False) -> None:
        """Resets all but the tables; the evaluation's weights are the learned ones if asked."""
        self.killers[:] = NO_MOVE
        self.history //= 8
        self.marks[:, NULL_MARK] = 0
        self.marks[:, EXCLUDED] = NO_MOVE
        self.ctl[:] = 0
        self.searches += 1
        self.ctl[AGE] = self.searches % 63 + 1
        self.ctl[MARGINS] = 100
        for slot_, weight in WEIGHTS.items():
            self.ctl[slot_] = weight
        if learned:
            self.ctl[PATTERNS] = 1
            for name, weight in self.learned_weights.items():
                self.ctl[LEARNED_SLOTS[name]] = weight

    def use_network(self, x_to_move: bool) -> bool:
        """Evaluates this search with the network, if there is one; whether there is."""
        if self.network is None:
            return False
        self.ctl[NNUE] = 1
        self.ctl[ROOT_X] = int(x_to_move)
        self.ctl[NN_BIAS_X], self.ctl[NN_BIAS_O] = self.network.out_bias
        self.ctl[NN_K] = self.network.k
        self.ctl[NN_UNITS_X], self.ctl[NN_UNITS_O] = self.units
        return True

    def search(self, own: int, opp: int, gaps: int, half: int, depth: int, alpha: int,
               beta: int) -> int:
        return int(root(U(own), U(opp), U(gaps), half, depth, alpha, beta, self.tt_own,
                        self.tt_opp, self.tt_data, self.moves, self.keys, self.killers,
                        self.history, self.marks, self.ctl, self.pat, self.net, self.acc))

    def best(self, own: int, opp: int) -> int:
        return int(root_move(U(own), U(opp), self.tt_own, self.tt_opp, self.tt_data))


def perft_count(own: int, opp: int, gaps: int, half: int, depth: int) -> int:
    return int(perft_root(U(own), U(opp), U(gaps), half, depth))


def move_list(own: int, opp: int, gaps: int) -> list[int]:
    return [int(m) for m in moves_root(U(own), U(opp), U(gaps))]


def warm() -> None:
    """Compiles (or loads from the cache) every entry point with a tiny search."""
    from game.rules.ataxx import START_FEN, from_fen
    pos = from_fen(START_FEN)
    perft_count(pos.x, pos.o, pos.gaps, 0, 2)
    move_list(pos.x, pos.o, pos.gaps)
    t = Tables()
    t.search(pos.x, pos.o, pos.gaps, 0, 2, -INF, INF)
    t.best(pos.x, pos.o)
