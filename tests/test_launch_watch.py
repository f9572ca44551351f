"""An outside program ends when the arcade is killed (kill -9) wherever the kernel's death
signal cannot be used: on systems without PR_SET_PDEATHSIG, and on Linux for a program started
from a thread other than the main one (the signal follows the spawning thread). The launcher
then stays as the program's parent, watches the arcade, and ends the program and what it
started when the arcade is gone."""

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
AGENTS = ROOT / "tests" / "agents"
pytestmark = [pytest.mark.timeout(120),
              pytest.mark.skipif(os.name != "posix" or not os.path.isdir("/proc/self"),
                                 reason="checks from outside through /proc")]

ARCADE = """
import sys, threading, time
sys.path.insert(0, {root!r})
from game import registry
from game.match import Match
from players.program import AgentController
registry.register("race", "tests.fakes.race", "tests.fakes.race", "tests.fakes.race")
ctrl = AgentController({command!r}, 60000)
match = Match("race", None, 1)
def ask():  # from a thread of its own, as a LAN or review worker would
    ctrl.request(match, 0)
    while ctrl.proc is None or not ctrl.ready:
        ctrl.poll()
        time.sleep(0.01)
t = threading.Thread(target=ask)
t.start()
t.join()
print(ctrl.proc.proc.pid, flush=True)
time.sleep(120)
"""


def state(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            letter = f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None
    return None if letter in "ZX" else letter


def test_a_program_started_off_the_main_thread_ends_when_the_arcade_is_killed(tmp_path):
    marks = tmp_path / "marks"
    marks.mkdir()
    command = f"{sys.executable} {AGENTS / 'stayer.py'} {marks}"
    code = ARCADE.format(root=str(ROOT), command=command)
    arcade = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                              cwd=str(ROOT))
    pause = threading.Event()
    pids: set[int] = set()
    try:
        pids.add(int(arcade.stdout.readline()))
        for _ in range(3000):  # the program is at its first turn: it and its child are there
            names = [p.name for p in marks.iterdir() if not p.name.endswith(".tmp")]
            if len(names) == 2:
                break
            pause.wait(0.01)
        pids |= {int(p.name.split("-")[1]) for p in marks.iterdir()
                 if not p.name.endswith(".tmp")}
        assert len(pids) >= 2 and all(state(p) for p in pids)
        arcade.send_signal(signal.SIGKILL)  # no finalizer, no atexit, no close()
        arcade.wait()
        for _ in range(1000):  # a bounded number of looks at the process table
            pids = {p for p in pids if state(p) is not None}
            if not pids:
                break
            pause.wait(0.01)
        assert not pids, f"outlived the arcade: {sorted(pids)}"
    finally:
        arcade.kill()
        for p in pids:
            try:
                os.kill(p, signal.SIGKILL)
            except OSError:
                pass
