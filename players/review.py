"""Review finished games from the command line: every position judged by Hard, every move
marked (ai/review.py), written as JSON (docs/review.md).

    python -m players.review REPLAY [REPLAY ...] [--quick | --deep | --seconds S] [--limit N]
                             [--out FILE] [--no-store] [--fresh]

A replay of the arcade or of the arena (players/arena.py) will do. The review is kept in the
replay file (an optional field older arcades read past), so a second run with the same
settings reads it back at once; --no-store leaves the file as it was, --fresh reviews again.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import IO

from ai.review import DEEP, QUICK, Review, Settings, reusable
from game import replay, storage


def settings_of(args: argparse.Namespace) -> Settings:
    if args.seconds is not None:
        return Settings(max(0.0, args.seconds), args.limit)
    base = DEEP if args.deep else QUICK
    return Settings(base.seconds, args.limit)


def review_file(path: Path, settings: Settings, store: bool = True, fresh: bool = False,
                progress: IO[str] | None = None) -> dict:
    """The review of one replay file: the stored one if it fits these settings, else made
    now (and stored, unless store is False)."""
    match, body = replay.load_replay(path)
    stored = replay.stored_review(body)
    if not fresh and reusable(stored, match, settings):
        assert stored is not None
        return stored
    job = Review(match, settings)
    for step in job.run():
        if progress is not None:
            progress.write(f"\r{path.name}: {step.done}/{step.total}")
            progress.flush()
    if progress is not None:
        progress.write("\n")
    assert job.result is not None
    if store:
        replay.store_review(path, job.result)
    return job.result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m players.review",
                                     description="Review finished games (JSON, one entry a ply).")
    parser.add_argument("replays", nargs="+", type=Path, help="replay files (.pareplay)")
    speed = parser.add_mutually_exclusive_group()
    speed.add_argument("--quick", action="store_true",
                       help=f"{QUICK.seconds} s of search a position (the default)")
    speed.add_argument("--deep", action="store_true", help=f"{DEEP.seconds} s a position")
    speed.add_argument("--seconds", type=float, default=None, help="seconds a position")
    parser.add_argument("--limit", type=int, default=0,
                        help="bound each search in the bot's own unit (plies, shots): the same "
                             "review on every machine (0: time alone)")
    parser.add_argument("--out", type=Path, default=None, help="write the JSON here (default: "
                                                                "standard output)")
    parser.add_argument("--no-store", action="store_true",
                        help="do not keep the review in the replay file")
    parser.add_argument("--fresh", action="store_true", help="review again even if the replay "
                                                             "holds a review of these settings")
    parser.add_argument("--quiet", action="store_true", help="no progress on standard error")
    args = parser.parse_args(argv)
    settings = settings_of(args)
    out = []
    for path in args.replays:
        try:
            doc = review_file(path, settings, not args.no_store, args.fresh,
                              None if args.quiet else sys.stderr)
        except storage.FileError as exc:
            print(f"{path}: {exc}", file=sys.stderr)
            return 1
        out.append({"replay": str(path), **doc})
    text = json.dumps(out[0] if len(out) == 1 else out, ensure_ascii=False, indent=1)
    if args.out is not None:
        storage.atomic_write(args.out, (text + "\n").encode("utf-8"))
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
