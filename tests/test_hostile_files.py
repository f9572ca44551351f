"""Files crafted to hurt: each gets a clear FileError (or RulesError from a record), costs little,
and a damaged save is set aside; nothing else escapes."""

import math
import os

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import replay, saves, storage
from game.match import Match
from game.rules import RulesError


def _record(race, **changes):
    m = Match(race, None, 3)
    m.play(1)
    return {**m.to_record(), **changes}


@pytest.mark.parametrize("seed", [math.inf, -math.inf, math.nan, 1.5, True, "7", None])
def test_a_save_with_a_seed_that_is_not_a_whole_number_is_refused_and_set_aside(race, seed):
    path = saves.path_for("bad seed")
    storage.write_file(path, saves.KIND, saves.FORMAT,
                       {"match": _record(race, seed=seed), "saved": 0, "title": "x", "moves": 1})
    with pytest.raises(storage.FileError, match="seed"):
        saves.load(path)
    assert not path.exists()  # set aside: Continue does not offer it again
    assert list(path.parent.glob("bad seed.pasave.damaged-*"))


@pytest.mark.parametrize("reseeds", [[[0, math.inf]], [[math.inf, 1]], [[5, 1]], [[-1, 1]],
                                     [[0]], [0], "x", [[0, 1, 2]]])
def test_bad_reseeds_are_refused(race, reseeds):
    with pytest.raises(RulesError):
        Match.from_record(_record(race, reseeds=reseeds))


def test_a_replay_with_an_infinite_seed_gives_a_clear_error(race, tmp_path):
    path = tmp_path / "inf.pareplay"
    storage.write_file(path, replay.KIND, replay.FORMAT, _record(race, seed=math.inf))
    with pytest.raises(storage.FileError, match="seed must be a whole number"):
        replay.load_replay(path)


def test_a_huge_sparse_file_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.pareplay"
    with open(path, "wb") as f:
        f.truncate(2 << 30)
    with pytest.raises(storage.FileError, match="too large"):
        replay.load_replay(path)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_link_to_a_device_is_not_a_file(tmp_path):
    path = tmp_path / "zero.pareplay"
    path.symlink_to("/dev/zero")
    with pytest.raises(storage.FileError, match="not a regular file"):
        replay.load_replay(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_in_the_replays_folder_does_not_hang_the_list(race):
    m = Match(race, None, 1)
    while not m.over:
        m.play(1)
    replay.save_replay(m, 1.0)
    os.mkfifo(replay.replays_dir() / f"fifo{replay.SUFFIX}")
    entries, problems = replay.list_replays()
    assert len(entries) == 1 and [p.params["name"] for p in problems] == ["fifo"]


def test_settings_linked_to_dev_zero_are_reset_with_a_message(tmp_path):
    from game import settings
    settings.reset_for_tests()
    path = settings.path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to("/dev/zero")
    assert settings.get("sound") is not None
    assert "not a regular file" in settings.take_problem().params["error"]


def test_a_file_of_empty_arrays_is_refused_by_its_size(tmp_path):
    path = tmp_path / "arrays.pasave"
    path.write_bytes(msgpack.packb({"kind": "save", "format": 1, "body": {
        "match": {"moves": [[]] * (2 << 20)}}}))
    with pytest.raises(storage.FileError, match="too large"):
        saves.load(path)


def test_stale_temporary_files_are_removed_and_fresh_ones_kept(tmp_path):
    old, fresh, kept = (tmp_path / "a.pasave.x1.tmp", tmp_path / "b.pasave.x2.tmp",
                        tmp_path / "c.pasave")
    start = 1_000_000_000.0  # file times and the clock the test's own, not the wall clock's
    for p, written in ((old, start), (fresh, start + 2), (kept, start)):
        p.write_bytes(b"x")
        os.utime(p, (written, written))
    at = start + storage.STALE_TEMP_SECONDS + 1  # old is stale by a second, fresh is not
    assert storage.remove_stale_temporaries([tmp_path], now=lambda: at) == 1
    assert not old.exists() and fresh.exists() and kept.exists()


hostile = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)
FIELDS = ("game", "options", "seed", "seats", "moves", "reseeds", "ending", "started")


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from(FIELDS), value=hostile)
def test_any_hostile_field_is_a_rules_error_or_a_match(race, field, value):
    record = _record(race, **{field: value})
    try:
        m = Match.from_record(record)
    except RulesError:
        return
    assert m.result_line()  # what was accepted is a usable match
