"""Replays saved at the same moment (arena workers, two loopback LAN sides sharing a home, a
burst of threads) each get a file of their own: the name is claimed atomically, never checked
and then written."""

import os
import sys
import threading
from pathlib import Path

import pytest

from game import replay
from game.match import Match

FIXED = 1_700_000_000.0  # every save happens in this one second


def _finished(race: str, seed: int = 3) -> Match:
    m = Match(race, None, seed)
    while not m.over:
        m.play(m.legal_moves()[0])
    return m


@pytest.mark.parametrize("links", [True, False], ids=["link", "no-links"])
def test_sixty_threads_saving_the_same_game_in_the_same_second_keep_sixty_files(
        race, tmp_path, monkeypatch, links):
    monkeypatch.setattr(replay.time, "time", lambda: FIXED)
    if not links:  # a file system without hard links (FAT): the O_EXCL claim does it

        def refuse(*args, **kwargs):
            raise PermissionError(1, "Operation not permitted")

        monkeypatch.setattr(os, "link", refuse)
    match = _finished(race)
    start = threading.Barrier(60)
    paths: list[Path] = []
    errors: list[BaseException] = []

    def save() -> None:
        start.wait()
        try:
            paths.append(replay.save_replay(match, 1.0, tmp_path))
        except BaseException as exc:  # noqa: B036 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=save) for _ in range(60)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    files = sorted(tmp_path.glob(f"*{replay.SUFFIX}"))
    assert len(set(paths)) == 60 and len(files) == 60
    for path in files:  # each is whole and readable
        again, _ = replay.load_replay(path)
        assert again.moves == match.moves
    assert not list(tmp_path.glob("*.tmp"))


CHILD = """
import sys, time
sys.path.insert(0, {root!r})
time.time = lambda: {fixed!r}
from game import registry, replay
from game.match import Match
registry.register("race", "tests.fakes.race", "tests.fakes.race", "tests.fakes.race")
m = Match("race", None, 3)
while not m.over:
    m.play(m.legal_moves()[0])
ready = sys.stdin.readline()  # every process starts saving on the same word
for _ in range(5):
    print(replay.save_replay(m, 1.0, {out!r}), flush=True)
"""


def test_processes_saving_the_same_game_in_the_same_second_keep_every_file(tmp_path):
    import subprocess
    root = str(Path(__file__).resolve().parent.parent)
    code = CHILD.format(root=root, fixed=FIXED, out=str(tmp_path))
    procs = [subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, cwd=root) for _ in range(8)]
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    printed = []
    for p in procs:
        out, _ = p.communicate(timeout=60)
        assert p.returncode == 0
        printed += out.split()
    assert len(printed) == 40 and len(set(printed)) == 40
    assert len(list(tmp_path.glob(f"*{replay.SUFFIX}"))) == 40


def test_open_and_delete_are_live_only_with_a_file_to_open(h):
    from client.scenes.replays import ReplayBrowserScene
    h.app.push("replays")
    scene = h.top
    assert isinstance(scene, ReplayBrowserScene)
    h.wait_until(lambda: not scene.loading)
    h.frame()
    assert not scene.entries and not any(b.enabled for b in scene.for_an_entry)
