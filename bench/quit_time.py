"""How long a killed arcade takes to end: SIGTERM (a logout, `kill`) until the process is gone.

    python bench/quit_time.py [--runs 5] [--wait 10] [--cold]

Starts `main.py` headless (SDL's dummy drivers) in a home of its own, waits --wait seconds,
sends SIGTERM and times the exit; then checks that no process of its group is left 5 s later
(the bot process; its orphans are init's to reap). Warm (the default): the home's numba cache
is filled by a first launch left running --warm seconds, as on any launch after the first.
--cold: a new home each run, so the bot process is still compiling its searches when the
signal comes.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def launch(home: Path) -> subprocess.Popen:
    env = dict(os.environ, PAPER_ARCADE_HOME=str(home), SDL_VIDEODRIVER="dummy",
               SDL_AUDIODRIVER="dummy")
    return subprocess.Popen([sys.executable, str(ROOT / "main.py")], env=env, cwd=ROOT,
                            start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def time_to_end(home: Path, wait: float) -> tuple[float, bool]:
    """Seconds from SIGTERM until the arcade is gone, and whether its group is empty then."""
    arcade = launch(home)
    time.sleep(wait)
    start = time.perf_counter()
    arcade.send_signal(signal.SIGTERM)
    arcade.wait(120)
    took = time.perf_counter() - start
    for _ in range(50):  # its children, orphaned at the exit, wait a moment for init to reap
        try:
            os.killpg(arcade.pid, 0)
        except ProcessLookupError:
            return took, True
        time.sleep(0.1)
    os.killpg(arcade.pid, signal.SIGKILL)
    return took, False


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--wait", type=float, default=10.0, help="seconds from launch to the signal")
    p.add_argument("--warm", type=float, default=120.0, help="the first, warming launch's seconds")
    p.add_argument("--cold", action="store_true", help="a new home (no numba cache) each run")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if not args.cold:
            time_to_end(Path(folder) / "home", args.warm)
        times, left = [], 0
        for run in range(args.runs):
            home = Path(folder) / (f"cold{run}" if args.cold else "home")
            took, clean = time_to_end(home, args.wait)
            times.append(took)
            left += not clean
            print(f"run {run + 1}: {took:.2f} s{'' if clean else '  (a process was left)'}")
        print(f"{'cold' if args.cold else 'warm'}: median {statistics.median(times):.2f} s, "
              f"worst {max(times):.2f} s over {args.runs} runs; runs leaving a process: {left}")


if __name__ == "__main__":
    main()
