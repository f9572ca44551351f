"""One setting of the compiled Ataxx search against another: paired openings (each played with
both colours), W-D-L of A and its Elo with the 95% margin. Used to keep or drop a search or
evaluation change (issue 22).

    python bench/ataxx_selfplay.py --a "null=1" --b "" --nodes 200000 --pairs 40
    python bench/ataxx_selfplay.py --a "lmr=1" --b "lmr=0" --time-ms 100 --pairs 40

A setting is comma-separated key=value: lmr (0, 1, 2, 3: 2 rounded), fp, null, partial, learned
(0/1: the learned pattern evaluation), issue 31's switches lmp (the depth up to which quiet
jumps are pruned, 0 none), tt (0/1: the table's scheme), iir (the least depth reduced, 0 none),
hist, widen, nnue, asp, se and margins (ai/ataxx.py's LMP, TT_SCHEME, IIR, HIST, WIDEN, NNUE:
the network on standard boards, ASPIRATION: the first window's half-width, SINGULAR, MARGINS:
the futility margins in percent), patterns (a tables file of bench/ataxx_train.py, played as the
learned evaluation), net (a network file of bench/ataxx_nnue_train.py, played as the network)
and the evaluation's weights front, mob, tempo, edge, corner (ai/ataxx_kernel.WEIGHTS). Unset
keys keep the bot's own.
--nodes gives each side the same nodes a move (repeatable, blind to the machine's load);
--time-ms the same time.
Openings: every blocker layout in turn (or only --layout's), then --plies random moves. Each
side keeps its own transposition table through a game.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai import ataxx, elo  # noqa: E402
from ai import ataxx_nnue as nnue  # noqa: E402
from ai import ataxx_patterns as patterns  # noqa: E402
from ai.base import Budget  # noqa: E402
from game.rules import ataxx as rules  # noqa: E402

KEYS = ("front", "mob", "tempo", "edge", "corner")
SWITCHES = {"lmp": "lmp", "tt": "tt_scheme", "iir": "iir", "hist": "hist", "widen": "widen",
            "nnue": "nnue", "asp": "aspiration", "se": "singular",
            "margins": "margins"}


def setting(text: str, kernel) -> dict:
    """CompiledSearch's keyword arguments for a setting's text."""
    kw: dict = {"weights": {}}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, _, value = part.partition("=")
        if key == "lmr":
            kw["lmr"] = int(value)
        elif key == "fp":
            kw["futility"] = bool(int(value))
        elif key == "null":
            kw["null_move"] = bool(int(value))
        elif key == "partial":
            kw["partial"] = bool(int(value))
        elif key == "learned":
            kw["learned"] = bool(int(value))
        elif key in SWITCHES:
            kw[SWITCHES[key]] = int(value)
        elif key == "patterns":
            kw["learned"] = True
            kw["evaluation"] = patterns.load(value)
        elif key == "net":
            kw["nnue"] = True
            kw["network"] = nnue.load(value)
        elif key in KEYS:
            kw["weights"][getattr(kernel, "W_" + key.upper())] = int(value)
        else:
            raise SystemExit(f"unknown key {key!r}: lmr, fp, null, partial, learned, "
                             f"patterns, net, {', '.join([*SWITCHES, *KEYS])}")
    return kw


def openings(pairs: int, plies: int, seed: int, layout: str | None = None
             ) -> list[rules.Position]:
    rng = random.Random(seed)
    layouts = [layout] if layout else list(rules.LAYOUTS)
    result = []
    for k in range(pairs):
        pos = rules.new_game({"layout": layouts[k % len(layouts)]})
        for _ in range(plies):
            pos = rules.apply(pos, rng.choice(rules.legal_moves(pos)))
        result.append(pos)
    return result


def play(kernel, start: rules.Position, sides: list[dict], nodes: int, time_ms: int) -> int | None:
    """One game from start, sides[0] playing x; the winner's index (None: a draw)."""
    kws = [dict(s) for s in sides]
    tables = [kernel.Tables(evaluation=kw.pop("evaluation", None),
                            network=kw.pop("network", None)) for kw in kws]
    pos = start
    while rules.outcome(pos) is None:
        side = pos.turn
        budget = Budget(time_ms / 1000 if time_ms else 3600)
        search = ataxx.CompiledSearch(kernel, budget, node_limit=nodes, tables=tables[side],
                                      **kws[side])
        move, _, _ = search.best_move(pos)
        pos = rules.make(pos, *move)
    return rules.outcome(pos).winner


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--a", default="", help="setting A (the one measured)")
    p.add_argument("--b", default="", help="setting B (the reference)")
    p.add_argument("--nodes", type=int, default=0, help="nodes a move (0: by time)")
    p.add_argument("--time-ms", type=int, default=100)
    p.add_argument("--pairs", type=int, default=20)
    p.add_argument("--plies", type=int, default=4, help="random plies after the layout")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--layout", choices=sorted(rules.LAYOUTS), default=None,
                   help="only this board (empty: the standard one); default every layout")
    args = p.parse_args()
    kernel = ataxx.warm_up()
    if kernel is None:
        raise SystemExit(f"numba unavailable: {ataxx.KERNEL.error}")
    a, b = setting(args.a, kernel), setting(args.b, kernel)
    w = d = l = 0
    t0 = time.monotonic()
    for k, start in enumerate(openings(args.pairs, args.plies, args.seed, args.layout)):
        for a_side in (0, 1):
            sides = [a, b] if a_side == 0 else [b, a]
            won = play(kernel, start, sides, args.nodes, 0 if args.nodes else args.time_ms)
            if won is None:
                d += 1
            elif won == a_side:
                w += 1
            else:
                l += 1
        print(f"pair {k + 1:3d}: A {w}-{d}-{l}  ({time.monotonic() - t0:.0f} s)", flush=True)
    e = elo.estimate(w, d, l)
    limit = f"{args.nodes} nodes" if args.nodes else f"{args.time_ms} ms"
    board = f"{args.layout} board" if args.layout else "every layout"
    print(f"A {args.a!r} vs B {args.b!r} at {limit} a move, {args.pairs} pairs ({board}): "
          f"W-D-L {w}-{d}-{l}, "
          f"score {e.score:.3f}, Elo {e.elo:+.0f} ± {e.margin:.0f}")


if __name__ == "__main__":
    main()
