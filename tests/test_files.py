"""Settings, saves and replays on disk: round trips, atomic writes and damaged files."""

import os
import subprocess
import sys
import threading

import msgpack
import pytest

from game import i18n, replay, saves, settings, storage
from game.match import Match, Seat

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def finished(race):
    m = Match(race, {"pile": 5}, 9, [Seat("human", "Ann"), Seat("ai", "Bot", "easy")])
    for move in (1, 3, 1):
        m.play(move)
    return m


def damaged_variants(good: bytes, kind: str) -> dict[str, bytes]:
    """Every way we could think of for a file to be wrong."""
    return {
        "empty": b"",
        "truncated": good[: len(good) // 2],
        "one byte": good[:1],
        "random bytes": os.urandom(200),
        "text": b"hello, this is not msgpack\n",
        "json": b'{"kind": "%s"}' % kind.encode(),
        "a list": msgpack.packb([1, 2, 3]),
        "wrong kind": storage.pack_file("something-else", 1, {}),
        "newer version": storage.pack_file(kind, 99, {}),
        "no format": msgpack.packb({"kind": kind, "body": {}}),
        "body not a map": msgpack.packb({"kind": kind, "format": 1, "body": [1]}),
        "trailing junk": good + b"\x00garbage",
        "huge length": b"\xdb\xff\xff\xff\xff",
    }


def test_atomic_write_leaves_old_file_on_failure(tmp_path, monkeypatch):
    folder = tmp_path / "atomic"
    target = folder / "f.bin"
    storage.atomic_write(target, b"old")

    def boom(*a):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        storage.atomic_write(target, b"new")
    assert target.read_bytes() == b"old"
    assert [p.name for p in folder.iterdir()] == ["f.bin"]  # no temporary file left behind


def test_settings_persist_and_survive_damage():
    settings.put("player_name", "Mei")
    settings.put("volume", 0.4)
    settings.save_now()
    settings.reset_for_tests()
    assert settings.get("player_name") == "Mei" and settings.get("volume") == 0.4
    path = settings.path()
    for name, data in damaged_variants(path.read_bytes(), "settings").items():
        if name == "trailing junk":
            continue
        path.write_bytes(data)
        settings.reset_for_tests()
        assert settings.get("player_name") == "Player", name
        problem = settings.take_problem()
        assert problem and "settings" in problem.english(), name
        assert not path.exists() and list(path.parent.glob("settings.msgpack.damaged-*")), name
        for p in path.parent.glob("settings.msgpack.damaged-*"):
            p.unlink()


def test_settings_ignore_values_of_the_wrong_type():
    storage.write_file(settings.path(), "settings", 1, {"volume": "loud", "sound": False,
                                                        "nonsense": 3})
    settings.reset_for_tests()
    assert settings.get("volume") == settings.DEFAULTS["volume"]
    assert settings.get("sound") is False


def test_save_and_load_round_trip(race):
    m = Match(race, {"pile": 9}, 4, [Seat("human", "Ann"), Seat("ai", "Bot", "hard")])
    m.play(1)
    m.play(2)
    m.undo()
    path = saves.save(m)
    again = saves.load(path)
    assert again.states == m.states and again.seats == m.seats and again.reseeds == m.reseeds
    assert saves.has_autosave()
    saves.remove()
    assert not saves.has_autosave()


def test_background_save_reports(race):
    m = Match(race, None, 4)
    m.play(1)
    done: list = []
    saves.save_in_background(m, "named one", done).join(5)
    assert [t.english() for t in done] == [f"Saved: {m.info.title}, move 2"]
    i18n.set_language("zh_CN")  # said in the player's language (it was English on every screen)
    try:
        assert done[0].say() == f"已保存：{m.info.title}，第 2 步"
    finally:
        i18n.set_language("en")
    assert [e.name for e in saves.list_saves()] == ["named one"]


def test_a_late_background_save_never_overwrites_a_newer_save(race, monkeypatch):
    """An autosave taken before the last move but written after the quit's save (its thread
    ran late) must not put the older game back on disk."""
    m = Match(race, {"pile": 9}, 4)
    m.play(1)
    real, release = storage.write_file, threading.Event()

    def slow_in_background(*args, **kwargs):
        if threading.current_thread().name == "save":
            release.wait(5)
        return real(*args, **kwargs)

    monkeypatch.setattr(storage, "write_file", slow_in_background)
    older = saves.save_in_background(m, "game")
    m.play(2)
    newer = threading.Thread(target=saves.save, args=(m, "game"))
    newer.start()
    newer.join(0.5)  # the newer save, done or waiting for the older write
    release.set()
    older.join(5)
    newer.join(5)
    assert len(saves.load(saves.path_for("game")).moves) == 2


@pytest.mark.parametrize("variant", list(damaged_variants(b"x" * 40, "save")))
def test_damaged_saves_give_a_clear_error(race, variant):
    good = storage.pack_file("save", 1, saves.save_body(finished(race)))
    path = saves.path_for("broken")
    path.write_bytes(damaged_variants(good, "save")[variant])
    with pytest.raises(storage.FileError) as info:
        saves.load(path)
    assert "\n" not in str(info.value) and str(info.value)


def test_save_with_an_illegal_move_is_refused(race):
    body = saves.save_body(finished(race))
    body["match"]["moves"][1] = 4
    path = saves.path_for("cheat")
    storage.write_file(path, "save", 1, body)
    with pytest.raises(storage.FileError, match="move 2"):
        saves.load(path)


def test_replay_round_trip_and_listing(race):
    m = finished(race)
    path = replay.save_replay(m, duration=12.5)
    again, body = replay.load_replay(path)
    assert again.states == m.states and body["duration"] == 12.5
    assert body["result"]["line"] == m.result_line() and body["game"] == "race"
    entries, problems = replay.list_replays()
    assert [e.path for e in entries] == [path] and not problems
    assert replay.list_replays("ataxx")[0] == []


def test_damaged_replays_are_set_aside_by_the_browser(race):
    m = finished(race)
    good = replay.save_replay(m)
    bad = replay.replays_dir() / f"bad{replay.SUFFIX}"
    bad.write_bytes(good.read_bytes()[:30])
    entries, problems = replay.list_replays()
    assert [e.path for e in entries] == [good]
    assert len(problems) == 1 and problems[0].params["name"] == "bad"
    assert not bad.exists()


def test_replay_whose_moves_lie_about_the_result(race):
    m = finished(race)
    body = replay.replay_body(m)
    body["result"]["line"] = "race: second wins 0-5"
    path = replay.replays_dir() / f"liar{replay.SUFFIX}"
    storage.write_file(path, "replay", 1, body)
    with pytest.raises(storage.FileError, match="result"):
        replay.load_replay(path)


def run_main(*args, home):
    env = dict(os.environ, PAPER_ARCADE_HOME=str(home), SDL_VIDEODRIVER="dummy",
               SDL_AUDIODRIVER="dummy")
    return subprocess.run([sys.executable, "main.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_headless_replay_prints_the_result_line_or_exits_2(race, arcade_home, tmp_path):
    bad = tmp_path / "bad.pareplay"
    bad.write_bytes(b"\x93\x01")
    run = run_main("--replay", str(bad), "--headless", home=arcade_home)
    assert run.returncode == 2 and "error" in run.stderr and run.stdout == ""
    run = run_main("--replay", str(tmp_path / "missing.pareplay"), "--headless",
                   home=arcade_home)
    assert run.returncode == 2 and "cannot read" in run.stderr
