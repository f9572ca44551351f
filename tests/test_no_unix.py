"""The arcade on a system without fcntl and without /proc (Windows has neither; some Unix
sandboxes have no /proc): LAN discovery and a LAN game on loopback, and an outside program
whose child of another session holds its output, all still work, and the lobby has a line
saying what finding hosts cannot do here."""

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
AGENTS = ROOT / "tests" / "agents"
pytestmark = pytest.mark.timeout(120)

SCRIPT = """
import sys
sys.modules["fcntl"] = None  # as on Windows: `import fcntl` fails
sys.path.insert(0, {root!r})
import builtins, os
def _no_proc(path):  # no /proc to look through, for any code that asks
    return str(path).startswith("/proc")
def _refuse(real, missing):
    def call(path, *args, **kwargs):
        if _no_proc(path):
            return missing(path)
        return real(path, *args, **kwargs)
    return call
def _raise(path):
    raise FileNotFoundError(2, "No such file or directory", str(path))
os.listdir = _refuse(os.listdir, _raise)
os.readlink = _refuse(os.readlink, _raise)
builtins.open = _refuse(builtins.open, _raise)
os.path.isdir = _refuse(os.path.isdir, lambda path: False)
os.path.exists = _refuse(os.path.exists, lambda path: False)
from players import program
import random, threading
from net import discovery
assert discovery.fcntl is None
assert discovery.broadcast_addresses()[-1] == "255.255.255.255"
assert "type its address" in discovery.limits().english()

# discovery on loopback
from tests.fakes.ports import spare_port
port = spare_port()
hosts = discovery.HostList(port).start()
beacon = discovery.Beacon({{"name": "Ann", "game": "dots", "options": {{}}, "port": 5555}},
                          port, ["127.0.0.1"]).start()
pause = threading.Event()
for _ in range(1000):
    if hosts.hosts():
        break
    pause.wait(0.01)
found = [h.name for h in hosts.hosts()]
beacon.stop(), hosts.stop()
assert found == ["Ann"], hosts.error

# a LAN game on loopback, played to the end
from tests.test_lan import pair, play_through
host, h, g = pair("dots")
try:
    play_through(h, g, random.Random(1))
    assert h.match.over and g.match.over and h.match.moves == g.match.moves
finally:
    h.close(), g.close(), host.stop()

# an outside program whose child (of another session) holds its output
from game import registry
from game.match import Match
from players.base import SeatFailure
registry.register("race", "tests.fakes.race", "tests.fakes.race", "tests.fakes.race")
match = Match("race", {{"pile": 9}}, 1)
ctrl = program.AgentController({command!r}, time_ms=5000)
ctrl.request(match, 0)
reason = ""
for _ in range(3000):
    try:
        ctrl.poll()
    except SeatFailure as exc:
        reason = str(exc)
        break
    pause.wait(0.005)
ctrl.close()
ctrl.wait_closed()
assert "program holder exited with code 5" in reason, reason
print("ok", flush=True)
"""


def state(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            letter = f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None
    return None if letter in "ZX" else letter


@pytest.mark.skipif(os.name != "posix" or not os.path.isdir("/proc/self"),
                    reason="checks from outside through /proc")
@pytest.mark.parametrize("mode", ["setsid", "daemon"])
def test_lan_and_programs_work_without_fcntl_and_proc(tmp_path, mode):
    pidfile = tmp_path / "child.pid"
    command = f"{sys.executable} {AGENTS / 'holder.py'} {mode} {pidfile}"
    code = SCRIPT.format(root=str(ROOT), command=command)
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "PAPER_ARCADE_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-c", code], cwd=str(ROOT), env=env,
                          capture_output=True, text=True, timeout=100)
    assert done.returncode == 0 and done.stdout.split() == ["ok"], done.stderr[-2000:]
    child = int(pidfile.read_text())
    pause = threading.Event()
    for _ in range(500):  # a bounded number of looks at the process table
        if state(child) is None:
            break
        pause.wait(0.01)
    assert state(child) is None, f"the {mode} child {child} outlived its program"
