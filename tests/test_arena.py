"""The arena on tiny runs: specs, scheduling, parallel games, the table, the last line and the
replays; the single-player comparison."""

import io
import os
import re
import sys
from pathlib import Path

import pytest

from game import registry
from game.replay import load_replay
from players import arena

ROOT = Path(__file__).resolve().parent.parent
RANDOM_AGENT = f"cmd:{sys.executable} {ROOT / 'tests' / 'agents' / 'random_agent.py'}"
DIER = f"cmd:{sys.executable} {ROOT / 'tests' / 'agents' / 'dier.py'}"
LAST = re.compile(r"^(.+) vs (.+): W-D-L = (\d+)-(\d+)-(\d+), score (\d+\.\d)%, "
                  r"Elo ([+-](?:\d+\.\d|inf))"
                  r"(?: ± (\d+\.\d|inf|nan)|, at (?:least|most) [+-]\d+\.\d) \(95%\)$")


@pytest.fixture
def solo():
    registry.register("solo", "tests.agents.solo", "tests.agents.solo", "tests.agents.solo")
    yield "solo"
    registry.unregister("solo")


def test_the_last_line_reads_in_both_forms():
    """A margin, or the closed end of an interval open on one side (ai.elo.summary_line)."""
    from ai import elo
    for wdl in ((6, 0, 0), (3, 1, 2), (5, 0, 1), (1, 0, 5)):
        m = LAST.match(elo.summary_line("a", "b", *wdl))
        assert m and tuple(int(x) for x in m.group(3, 4, 5)) == wdl


def test_parse_spec():
    assert arena.parse_spec("builtin:hard") == arena.Spec("builtin", "hard")
    assert arena.parse_spec('cmd:python -m ai.agent').value == "python -m ai.agent"
    assert arena.parse_spec("uai:engine").kind == "uai"
    for bad in ("hard", "builtin:genius", "cmd:", "ftp:x"):
        with pytest.raises(ValueError):
            arena.parse_spec(bad)


def test_schedule_swaps_seats_in_pairs(race):
    jobs = arena.schedule(race, "builtin:easy", "builtin:hard", 5, 100, 7, "")
    assert [j.seats for j in jobs] == [["a", "b"], ["b", "a"]] * 2 + [["a", "b"]]
    assert jobs[0].seed == jobs[1].seed != jobs[2].seed == jobs[3].seed
    assert all(j.register[0] == "race" for j in jobs)
    assert arena.schedule(race, "builtin:easy", "builtin:hard", 5, 100, 7, "")[4].seed == \
        jobs[4].seed  # the same seed gives the same run


def test_run_in_process_saves_replays(race, tmp_path):
    run = arena.run(race, "builtin:hard", RANDOM_AGENT, 4, 1, 200, 3, str(tmp_path))
    assert len(run.results) == 4 and not any(r.error for r in run.results)
    assert {r.pid for r in run.results} == {os.getpid()}
    w, d, l = run.wdl()
    assert w + d + l == 4
    assert w == 4  # a pile of 7 is a first-player win and hard never misses the 4k move...
    for r in run.results:
        match, body = load_replay(r.replay)
        assert match.over and body["result"]["winner"] == r.winner
        assert [s["name"][:2] for s in body["seats"]] == [f"{w.upper()}:" for w in r.seats]
    m = LAST.match(run.last_line())
    assert m and m.group(3, 4, 5) == ("4", "0", "0") and m.group(7) == "+inf"


def test_failing_program_loses_every_game_in_parallel_workers(race, tmp_path):
    run = arena.run(race, "builtin:easy", DIER, 2, 2, 200, 1, str(tmp_path))
    assert run.wdl() == (2, 0, 0)
    assert os.getpid() not in {r.pid for r in run.results}
    assert all("exited with code 3" in r.reason for r in run.results)
    text = arena.table(run)
    assert "A as first: W-D-L = 1-0-0" in text and "A as second: W-D-L = 1-0-0" in text


def streams() -> tuple[io.StringIO, io.StringIO]:
    """The CLI's own output streams: under load, pytest's capsys was seen to lose what was
    printed after a test's first call (sys.stderr back to the global capture mid-test)."""
    return io.StringIO(), io.StringIO()


def test_cli_prints_table_and_last_line(race, tmp_path):
    out_stream, err_stream = streams()
    code = arena.main(["--game", race, "--a", "builtin:random", "--b", "builtin:easy",
                       "--games", "6", "--jobs", "1", "--time-ms", "50", "--seed", "5",
                       "--out", str(tmp_path)], out_stream, err_stream)
    out, err = out_stream.getvalue(), err_stream.getvalue()
    assert code == 0
    lines = out.strip().splitlines()
    m = LAST.match(lines[-1])
    assert m and m.group(1) == "builtin:random" and m.group(2) == "builtin:easy"
    assert sum(int(x) for x in m.group(3, 4, 5)) == 6
    assert len([ln for ln in lines if re.match(r"^\s+\d+\s", ln)]) == 6
    assert "6/6" in err and "[" in err
    assert len(list(tmp_path.glob("*.pareplay"))) == 6


def test_cli_refuses_bad_arguments(race):
    out, errs = streams()
    assert arena.main(["--game", race, "--a", "uai:x", "--b", "builtin:easy"], out, errs) == 2
    assert arena.main(["--game", "nope", "--a", "builtin:easy", "--b", "builtin:easy"],
                      out, errs) == 2
    assert arena.main(["--game", race, "--a", "builtin:easy", "--b", "builtin:easy",
                       "--games", "0"], out, errs) == 2
    err = errs.getvalue()
    assert not out.getvalue()
    assert "only Ataxx" in err and "unknown game" in err and "at least 1" in err


def test_single_player_compares_mean_scores_on_the_same_seeds(solo, tmp_path):
    run = arena.run(solo, "builtin:hard", "builtin:random", 5, 1, 50, 2, str(tmp_path))
    assert len(run.results) == 10
    seeds_a = [r.index // 2 for r in run.results if r.seats == ["a"]]
    assert seeds_a == list(range(5))
    score = {(r.seats[0], r.index // 2): r.score[0] for r in run.results}
    pairs = [(score["a", k], score["b", k]) for k in range(5)]
    assert all(score["a", k] in (6, 7, 8, 9, 10) for k in range(5))
    mean_a, mean_b, n = run.means()
    assert n == 5
    assert mean_a == pytest.approx(sum(a for a, _ in pairs) / 5)
    assert mean_b == pytest.approx(sum(b for _, b in pairs) / 5)
    w, d, l = run.wdl()
    assert (w, d, l) == (sum(a > b for a, b in pairs), sum(a == b for a, b in pairs),
                         sum(a < b for a, b in pairs))
    assert run.last_line() == (f"builtin:hard vs builtin:random: mean score {mean_a:.1f} vs "
                               f"{mean_b:.1f} over 5 seeds (A higher {w}, equal {d}, lower {l})")
    assert "player" in arena.table(run)
