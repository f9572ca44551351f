"""Another engine's Ataxx network in ai.ataxx_nnue's format, for measurements only (issue 31;
never shipped): a side-relative 2916 -> H -> 1 network of int16 in the layout of Zataxx's
`net6.bin` (2x2 windows read as 3^4 states, side to move first; feature weights row by row, the
H biases, the H output weights, the output bias; QA 255, QB 64, 400 points a logit), written in
absolute colours at twice its units by ai.ataxx_nnue.absolute().

    python bench/ataxx_nnue_import.py NET.bin OUT.npz [--hidden 256] [--scale 400]

It checks itself: the file must hold exactly the numbers that layout needs.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai import ataxx_nnue as nnue  # noqa: E402


def imported(raw: np.ndarray, hidden: int, scale: int) -> nnue.Net:
    """The network of raw (int16, the layout above) as the kernel reads it."""
    if not 4 <= hidden <= 512 or hidden % 4:
        raise SystemExit(f"{hidden} units a side: the kernel takes 8 to 1024 in all, "
                         "a multiple of 8 (ai.ataxx_nnue.load)")
    need = nnue.INPUTS * hidden + 2 * hidden + 1
    if raw.size not in (need, need + 1):  # + 1: the struct's padding to a 4-byte boundary
        raise SystemExit(f"{raw.size} numbers, not the {need} of a {hidden}-unit network")
    n = nnue.INPUTS * hidden
    w, bias, head, out_bias = nnue.absolute(raw[:n].reshape(nnue.INPUTS, hidden),
                                            raw[n:n + hidden], raw[n + hidden:n + 2 * hidden],
                                            int(raw[n + 2 * hidden]))
    rows = np.concatenate([w, bias[None], head]).astype(np.int16)
    return nnue.Net(rows, (int(out_bias[0]), int(out_bias[1])), scale)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("source")
    p.add_argument("out")
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--scale", type=int, default=400, help="the engine's points a logit")
    args = p.parse_args()
    try:
        raw = np.fromfile(args.source, dtype="<i2")
    except OSError as exc:
        raise SystemExit(f"{args.source}: {exc.strerror or exc}") from None
    net = imported(raw, args.hidden, args.scale)
    nnue.save(net, args.out)
    print(f"-> {args.out}: {2 * args.hidden} units (side-relative, {args.hidden} a side), "
          f"K {args.scale}")


if __name__ == "__main__":
    main()
