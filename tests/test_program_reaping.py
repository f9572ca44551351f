"""How an outside program's end is read: its exit code, never None because another thread was
reaping it at that moment; and no signal is sent by its pid once it has been reaped (the pid
may be another process's by then)."""

import os
import signal
import sys
import threading
from pathlib import Path

import pytest

from game.match import Match
from players import program
from players.base import SeatFailure
from players.program import AgentController

AGENTS = Path(__file__).resolve().parent / "agents"
pytestmark = pytest.mark.timeout(60)


def agent(name: str, *args: str) -> str:
    return " ".join([sys.executable, str(AGENTS / name), *args])


def reader_alive() -> bool:
    return any(t.name == "agent-_read" and t.is_alive() for t in threading.enumerate())


def test_the_exit_code_is_read_even_when_the_exit_comes_after_the_end_of_output(race, tmp_path):
    release = tmp_path / "release"
    match = Match(race, {"pile": 9}, 1)
    ctrl = AgentController(agent("late_exit.py", str(release)), time_ms=20_000)
    pause = threading.Event()
    reason = ""
    try:
        ctrl.request(match, 0)
        for _ in range(6000):  # a bounded number of looks
            try:
                assert ctrl.poll() is None
            except SeatFailure as exc:
                reason = str(exc)
                break
            # the host has the end of output (a watching launcher holds the pipe until the
            # program exits: there the two cannot come apart): now exit
            watching = ctrl.proc is not None and "--watch" in ctrl.proc.proc.args
            closed = Path(f"{release}.closed").exists()
            if ctrl.ready and not release.exists() and (
                    not reader_alive() or (watching and closed)):
                release.write_text("go")
            pause.wait(0.005)
    finally:
        ctrl.close()
        ctrl.wait_closed()
    assert "program late exited with code 3" in reason


@pytest.mark.skipif(not hasattr(os, "waitid"), reason="needs POSIX waitid")
def test_no_group_is_signalled_by_a_pid_already_reaped(race, monkeypatch):
    calls: list[tuple[int, str]] = []
    real = os.killpg

    def recording(pgid: int, sig: int) -> None:
        try:
            os.waitid(os.P_PID, pgid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            state = "ours"
        except ChildProcessError:
            state = "reaped"  # the pid is free: it may name anyone's group by now
        calls.append((pgid, state))
        real(pgid, sig)

    monkeypatch.setattr(os, "killpg", recording)
    pause = threading.Event()
    for _ in range(3):
        match = Match(race, {"pile": 9}, 1)
        ctrl = AgentController(agent("dier.py"), time_ms=20_000)
        ctrl.request(match, 0)
        for _ in range(6000):
            try:
                ctrl.poll()
            except SeatFailure:
                break
            pause.wait(0.005)
        ctrl.close()
        ctrl.wait_closed()
        pid = ctrl.proc.proc.pid
        mine = [state for p, state in calls if p == pid]
        assert mine and "reaped" not in mine, mine
        ctrl.proc._signal(signal.SIGTERM)  # after the end: must not reach anyone
        program.sweep_programs()
        assert [state for p, state in calls if p == pid] == mine
        calls.clear()
