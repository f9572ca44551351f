"""The whole test suite, two runs at once, on a machine loaded by the other: what issue 30 asks
of the suite (no failure under load).

    python bench/suite_pairs.py --pairs 3 [--rev HEAD] [--keep DIR]

Each pair clones the revision twice into a temporary folder (so the runs share no cache or
file) and starts both suites together, headless, with every test reported. Prints a line a run
(its pair, passed and failed counts, seconds) and the failed tests' ids; the logs stay in
--keep if given. Exits 1 if any run failed.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMAND = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=", "-q",
           "-rf"]
SUMMARY = re.compile(r"(\d+) (passed|failed|xfailed|error)")


def clone(rev: str, where: Path) -> Path:
    subprocess.run(["git", "clone", "-q", str(ROOT), str(where)], check=True)
    subprocess.run(["git", "-C", str(where), "checkout", "-q", rev], check=True)
    return where


def run_pair(rev: str, folder: Path, pair: int) -> list[tuple[str, dict, list[str], float]]:
    """Both suites of one pair at once; (name, counts, failed ids, seconds) a run."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    runs = []
    for side in "ab":
        tree = clone(rev, folder / f"pair{pair}{side}")
        log = open(folder / f"pair{pair}{side}.log", "w")
        runs.append((f"{pair}{side}", subprocess.Popen(COMMAND, cwd=tree, env=env, stdout=log,
                                                       stderr=subprocess.STDOUT), log,
                     time.monotonic()))
    results = []
    for name, proc, log, began in runs:
        proc.wait()
        log.close()
        text = Path(log.name).read_text(errors="replace")
        counts = {kind: int(n) for n, kind in SUMMARY.findall(text.splitlines()[-1] if text
                                                              else "")}
        failed = re.findall(r"^FAILED (\S+)", text, re.M)
        results.append((name, counts, failed, time.monotonic() - began))
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=1)
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--keep", default="", help="a folder for the clones and logs")
    args = parser.parse_args()
    rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.rev],
                         check=True, capture_output=True, text=True).stdout.strip()
    bad = 0
    with tempfile.TemporaryDirectory(prefix="suite-pairs-") as tmp:
        folder = Path(args.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for pair in range(1, args.pairs + 1):
            for name, counts, failed, seconds in run_pair(rev, folder, pair):
                ok = counts.get("passed", 0) > 0 and not failed and not counts.get("failed")
                bad += not ok
                print(f"{rev} run {name}: {counts.get('passed', 0)} passed, "
                      f"{counts.get('failed', 0)} failed, {seconds:.0f} s", flush=True)
                for test in failed:
                    print(f"    FAILED {test}", flush=True)
    print(f"{2 * args.pairs - bad} of {2 * args.pairs} runs clean")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
