"""kill -9 of a parallel arena: nothing it started outlives it: not its pool workers, not the
programs they run, not what those programs started (a child of another session holding
their output)."""

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
              pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")]

ARENA = """
import sys
sys.path.insert(0, {root!r})
from game import registry
registry.register("race", "tests.fakes.race", "tests.fakes.race", "tests.fakes.race")
from players import arena
sys.exit(arena.main(["--game", "race", "--a", {agent!r}, "--b", "builtin:easy",
                     "--games", "2", "--jobs", "2", "--time-ms", "60000",
                     "--out", {out!r}]))
"""


def state(pid: int) -> str | None:
    """The process's state letter, None if it is gone (a zombie counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            letter = f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None
    return None if letter in "ZX" else letter


def children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            tree.setdefault(ppid, []).append(int(entry))
    return tree


def descendants(pid: int) -> set[int]:
    tree, found, todo = children(), set(), [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def test_kill_9_of_a_parallel_arena_leaves_no_process_of_its_tree(tmp_path):
    marks = tmp_path / "marks"
    marks.mkdir()
    agent = f"cmd:{sys.executable} {AGENTS / 'stayer.py'} {marks}"
    code = ARENA.format(root=str(ROOT), agent=agent, out=str(tmp_path / "replays"))
    arena = subprocess.Popen([sys.executable, "-c", code], cwd=str(ROOT),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pause = threading.Event()
    tree: set[int] = set()
    try:
        for _ in range(3000):  # both games under way: two agents, each with its child
            names = [p.name for p in marks.iterdir() if not p.name.endswith(".tmp")]
            if sum(n.startswith("agent-") for n in names) == 2 and \
                    sum(n.startswith("child-") for n in names) == 2:
                break
            assert arena.poll() is None, "the arena ended before its games were under way"
            pause.wait(0.01)
        else:
            raise AssertionError("the games never got under way")
        tree = descendants(arena.pid) | {int(p.name.split("-")[1]) for p in marks.iterdir()
                                         if not p.name.endswith(".tmp")}
        assert len(tree) >= 6  # 2 workers, 2 agents, 2 children (and the resource tracker)
        arena.send_signal(signal.SIGKILL)
        arena.wait()
        left = tree
        for _ in range(1000):  # a bounded number of looks at the process table
            left = {pid for pid in left if state(pid) is not None}
            if not left:
                break
            pause.wait(0.01)
        assert not left, f"outlived the arena: {sorted(left)}"
    finally:
        arena.kill()
        for pid in tree:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


@pytest.mark.parametrize("how", ["", "exit"], ids=["too-slow", "exits"])
def test_a_parallel_arena_that_ends_leaves_no_program_nor_child(race, tmp_path, how):
    from players import arena
    marks = tmp_path / "marks"
    marks.mkdir()
    agent = f"cmd:{sys.executable} {AGENTS / 'stayer.py'} {marks} {how}".strip()
    run = arena.run(race, agent, "builtin:easy", games=2, jobs=2, time_ms=300,
                    out=str(tmp_path / "replays"))
    words = "exited with code 5" if how else "too slow"
    assert all(words in r.reason for r in run.results), [r.reason for r in run.results]
    pids = {int(p.name.split("-")[1]) for p in marks.iterdir() if not p.name.endswith(".tmp")}
    assert len(pids) == 4
    pause = threading.Event()
    for _ in range(500):  # a bounded number of looks at the process table
        pids = {pid for pid in pids if state(pid) is not None}
        if not pids:
            break
        pause.wait(0.01)
    assert not pids, f"outlived their arena: {sorted(pids)}"
