"""Build the Linux app folder with PyInstaller and run its headless demo; print size and times.

    python bench/build_app.py [--out /tmp/paper-arcade-app] [--game ataxx] [--no-build]

Needs PyInstaller (requirements-dev.txt). The app goes to OUT/dist/PaperArcade; the demo runs
from / with PAPER_ARCADE_HOME in OUT, so nothing is written to the user's folders. Start time is
the median of five runs of `--help` (the bootloader, Python and main.py's imports) and of a
random-bot demo (every module the game needs loaded, one game played in a few milliseconds).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "packaging" / "paper-arcade.spec"


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    run = subprocess.run(argv, cwd="/", env=env, capture_output=True, text=True, timeout=600)
    return time.perf_counter() - start, run


def median_time(argv: list[str], env: dict[str, str], runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        seconds, run = timed(argv, env)
        if run.returncode != 0:
            raise SystemExit(f"{' '.join(argv)} failed ({run.returncode}):\n{run.stderr[-2000:]}")
        times.append(seconds)
    return statistics.median(times)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=Path("/tmp/paper-arcade-app"))
    p.add_argument("--game", default="ataxx", help="the game of the headless demo")
    p.add_argument("--no-build", action="store_true", help="measure the app already in --out")
    args = p.parse_args()
    dist, work = args.out / "dist", args.out / "work"
    app = dist / "PaperArcade"
    exe = app / "paper-arcade"
    if not args.no_build:
        start = time.perf_counter()
        build = subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean",
                                "--log-level", "WARN", "--distpath", str(dist),
                                "--workpath", str(work), str(SPEC)], cwd=ROOT)
        if build.returncode != 0:
            raise SystemExit(f"PyInstaller failed ({build.returncode})")
        print(f"build            {time.perf_counter() - start:7.1f} s")
    if not exe.is_file():
        raise SystemExit(f"no app at {exe}: build it first")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PAPER_ARCADE_HOME=str(args.out / "home"))
    size = folder_size(app)
    files = sum(1 for p in app.rglob("*") if p.is_file())
    print(f"app folder       {size / 2**20:7.1f} MiB in {files} files  ({app})")
    seconds, run = timed([str(exe), "--demo", args.game, "--headless", "--ai", "easy",
                          "--seed", "1"], env)
    if run.returncode != 0:
        raise SystemExit(f"the demo failed ({run.returncode}):\n{run.stderr[-2000:]}")
    print(f"demo (easy)      {seconds:7.2f} s  {run.stdout.strip()}")
    help_s = median_time([str(exe), "--help"], env)
    demo_s = median_time([str(exe), "--demo", args.game, "--headless", "--ai", "random"], env)
    print(f"start (--help)   {help_s:7.2f} s  median of 5")
    print(f"start (demo)     {demo_s:7.2f} s  median of 5, random bots")


if __name__ == "__main__":
    main()
