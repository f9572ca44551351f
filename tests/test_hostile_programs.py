"""Outside programs that try to hurt the arcade: each loses with a reason, poll() only ever
raises SeatFailure, and nothing a program started outlives its seat."""

import os
import sys
import time
from pathlib import Path

import pytest

from game.match import Match
from players import arena
from players.bot import AIController
from players.program import AgentController
from players.table import play_out

pytestmark = pytest.mark.timeout(60)

AGENTS = Path(__file__).resolve().parent / "agents"
posix_proc = pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs Linux /proc")


def agent(name: str, *args: str) -> str:
    return " ".join([sys.executable, str(AGENTS / name), *args])


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie is gone
    except OSError:
        return False


def gone_soon(pid: int, seconds: float = 3.0) -> bool:
    end = time.monotonic() + seconds
    while alive(pid) and time.monotonic() < end:
        time.sleep(0.02)
    return not alive(pid)


def play_against(command: str, race: str, time_ms: int = 300) -> tuple[Match, AgentController]:
    match = Match(race, {"pile": 9}, 1)
    ctrl = AgentController(command, time_ms=time_ms)
    play_out(match, [ctrl, AIController("easy", 0.02, 1)])
    ctrl.wait_closed()
    return match, ctrl


def test_deeply_nested_json_loses_and_the_program_is_ended(race):
    match, ctrl = play_against(agent("deep.py"), race)
    out = match.outcome()
    assert match.resigned == 0 and out.winner == 1
    assert "program deep printed JSON nested more than" in out.reason
    assert gone_soon(ctrl.proc.proc.pid)


def test_json_just_deeper_than_the_limit_is_refused_before_it_is_used(race):
    from players.program import MAX_DEPTH
    match, _ = play_against(agent("deep.py", str(MAX_DEPTH)), race)  # in a message: one more
    assert f"nested more than {MAX_DEPTH} deep" in match.outcome().reason
    match, _ = play_against(agent("deep.py", str(MAX_DEPTH - 1)), race)
    assert "sent a malformed move" in match.outcome().reason


@posix_proc
@pytest.mark.parametrize("mode", ["group", "setsid", "daemon"])
def test_a_child_holding_the_pipes_neither_hides_the_exit_nor_outlives_the_seat(
        race, tmp_path, mode):
    pidfile = tmp_path / "child.pid"
    # ten minutes a move, far past this file's timeout: only an exit seen at once can pass
    match, ctrl = play_against(agent("holder.py", mode, str(pidfile)), race, time_ms=600_000)
    reason = match.outcome().reason
    assert "program holder exited with code 5" in reason and "too slow" not in reason
    child = int(pidfile.read_text())
    assert gone_soon(child), f"the {mode} child {child} outlived the seat"


@posix_proc
@pytest.mark.parametrize("program", [("deep.py",), ("holder.py", "setsid")])
def test_hostile_programs_lose_their_arena_games(race, tmp_path, program):
    pidfile = tmp_path / "child.pid"
    # each program's command line names this test's folder, so only its own leftovers count
    # (another suite running at the same time has programs of the same name)
    args = program + ((str(pidfile),) if program[0] == "holder.py" else ("30000", str(tmp_path)))
    run = arena.run(race, f"cmd:{agent(*args)}", "builtin:easy", games=2, jobs=1, time_ms=300,
                    out=str(tmp_path / "replays"))
    assert [r.error for r in run.results] == ["", ""]
    assert run.wdl() == (0, 0, 2)  # lost, not voided
    for r in run.results:
        assert r.reason.startswith("Lost through a failure: program ")
    if pidfile.exists():
        assert gone_soon(int(pidfile.read_text()))
    name = program[0]
    leftovers = [p for p in os.listdir("/proc") if p.isdigit() and alive(int(p))
                 and name.encode() in _cmdline(p) and str(tmp_path).encode() in _cmdline(p)]
    assert leftovers == []


def _cmdline(pid: str) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return b""


ARCADE = """
import sys, time
sys.path.insert(0, {root!r})
from game.match import Match
from players.program import AgentController
ctrl = AgentController({command!r}, 60000)
from game import registry
registry.register("race", "tests.fakes.race", "tests.fakes.race", "tests.fakes.race")
match = Match("race", None, 1)
ctrl.request(match, 0)
while ctrl.proc is None or not ctrl.ready:
    ctrl.poll()
    time.sleep(0.01)
print(ctrl.proc.proc.pid, flush=True)
time.sleep(60)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_an_outside_program_ends_when_the_arcade_is_killed():
    import subprocess
    root = str(Path(__file__).resolve().parent.parent)
    code = ARCADE.format(root=root, command=agent("sleeper.py"))
    arcade = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                              cwd=root)
    try:
        pid = int(arcade.stdout.readline())
        assert alive(pid)
        arcade.kill()  # kill -9: no finalizer, no atexit, no close()
        arcade.wait()
        assert gone_soon(pid, 5.0)
    finally:
        arcade.kill()
