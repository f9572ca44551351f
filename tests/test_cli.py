"""main.py from the command line: the headless demo, and its replay printing the same line."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_main(home, *args):
    env = dict(os.environ, PAPER_ARCADE_HOME=str(home), SDL_VIDEODRIVER="dummy",
               SDL_AUDIODRIVER="dummy")
    return subprocess.run([sys.executable, "main.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_headless_demo_then_headless_replay(arcade_home):
    demo = run_main(arcade_home, "--demo", "ataxx", "--headless", "--ai", "easy",
                    "--seconds", "0.02", "--seed", "5")
    assert demo.returncode == 0, demo.stderr
    lines = demo.stdout.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ataxx: ")
    assert ("wins" in lines[0] or "draw" in lines[0]) and "-" in lines[0]
    replays = list((arcade_home / "data" / "replays").glob("*.pareplay"))
    assert len(replays) == 1
    again = run_main(arcade_home, "--replay", str(replays[0]), "--headless")
    assert again.returncode == 0 and again.stdout.strip() == lines[0]


def test_unknown_game_and_bad_flags(arcade_home):
    run = run_main(arcade_home, "--demo", "chess", "--headless")
    assert run.returncode == 2 and "chess" in run.stderr
    run = run_main(arcade_home, "--headless")
    assert run.returncode == 2
