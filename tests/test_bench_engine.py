"""The benches' readers of outside engines (bench/engine_lines.py: the Ataxx benches' UAI
Engine, the Banqi bench's CDC one) against engines that hang, flood or die: each run ends with a
message naming what the engine did, and no engine stays."""

import os
import sys
import textwrap

import pytest

from bench.ataxx_engine_depth import Engine

ANSWERS_UAI = """
import sys
import time
for line in sys.stdin:
    if line.startswith("uai"):
        print("uaiok", flush=True)
    if line.startswith("go"):
        {on_go}
"""
ON_GO = {
    "hangs": ("pass", "said nothing for 1 s before 'bestmove'"),
    "floods": ("while True: print('info depth 1 nodes 5', flush=True)",
               "printed more than"),
    # never silent for long, and read as fast as it comes, so no queue fills: the reader counts
    "trickles": ("while True: print('info depth 1 nodes 5', flush=True); time.sleep(0.005)",
                 "printed more than 50 lines before 'bestmove'"),
    "dies": ("sys.stderr.write('out of memory\\n'); sys.exit(3)",
             "exited with code 3 (stderr: out of memory) before 'bestmove'"),
    "garbles": ("sys.stdout.buffer.write(b'\\xff\\xfe\\n'); sys.stdout.flush()",
                "printed a line that is not UTF-8"),
}


@pytest.mark.parametrize("kind", sorted(ON_GO))
def test_an_engine_that_misbehaves_stops_the_bench_with_a_message(kind, tmp_path):
    script = tmp_path / f"{kind}.py"
    on_go, message = ON_GO[kind]
    script.write_text(textwrap.dedent(ANSWERS_UAI).replace("{on_go}", on_go))
    # a second's silence allowed: a trickle every 5 ms is never taken for silence on a busy machine
    engine = Engine(f"{sys.executable} {script}", silence_s=1.0, max_lines=50)
    with pytest.raises(SystemExit) as stop:
        engine.best("x5o/7/7/7/7/7/o5x x 0 1", 100)
    assert message in str(stop.value)
    assert engine.proc.exited.wait(10)  # killed, not left running


def test_an_engine_slow_to_start_is_not_taken_for_silent(tmp_path):
    """An interpreter and its imports, or a net being loaded, may take longer than the silence
    allowed between lines: the first line gets the arcade's start-up allowance (the CI once
    stopped a Python engine for 0.2 s of silence before 'uaiok')."""
    script = tmp_path / "slow.py"
    script.write_text("import time\ntime.sleep(2.5)\n" + textwrap.dedent(ANSWERS_UAI).replace(
        "{on_go}", "print('bestmove b6', flush=True)"))
    # a second between the later lines, as the other tests allow a busy machine
    engine = Engine(f"{sys.executable} {script}", silence_s=1.0)
    assert engine.best("x5o/7/7/7/7/7/o5x x 0 1", 100) == "b6"
    engine.close()


def test_an_engine_that_answers_gives_its_move(tmp_path):
    script = tmp_path / "answers.py"
    script.write_text(textwrap.dedent(ANSWERS_UAI).replace(
        "{on_go}", "print('info depth 1 nodes 7'); print('bestmove b6', flush=True)"))
    engine = Engine(f"{sys.executable} {script}", silence_s=5)
    assert engine.best("x5o/7/7/7/7/7/o5x x 0 1", 100) == "b6"
    assert engine.nodes("x5o/7/7/7/7/7/o5x x 0 1", 1) == 7
    engine.close()
    assert engine.proc.exited.is_set()


ANSWERS_CDC = """
import os
import sys
import time
print(os.getpid(), file=open(sys.argv[1], "w"), flush=True)
for line in sys.stdin:
    cid, command = line.split(" ", 1)
    if command.startswith("genmove"):
        {on_genmove}
    print(f"={cid} ok", flush=True)
"""
ON_GENMOVE = {
    "hangs": ("time.sleep(60)", "said nothing for 1 s before answering 'genmove"),
    "trickles": ("while True: print('thinking', flush=True); time.sleep(0.005)",
                 "printed more than 50 lines before answering 'genmove"),
    "dies": ("sys.exit(4)", "exited with code 4 before answering 'genmove"),
}


@pytest.mark.parametrize("kind", sorted(ON_GENMOVE))
def test_a_cdc_engine_that_misbehaves_leaves_its_game_unfinished_and_is_gone(
        kind, tmp_path, monkeypatch):
    """The Banqi bench's game against an engine that fails at its first move is recorded as
    unfinished with what the engine did, and the engine process does not outlive it."""
    from bench import banqi_vs_cdc
    monkeypatch.setattr(banqi_vs_cdc, "ENGINE_TIMEOUT", 1.0)
    monkeypatch.setattr(banqi_vs_cdc, "MAX_LINES", 50)
    monkeypatch.setattr(banqi_vs_cdc.bot.KERNEL, "load", lambda: None)  # Hard never moves here
    on_genmove, message = ON_GENMOVE[kind]
    script, pid_file = tmp_path / "cdc.py", tmp_path / "pid"
    script.write_text(textwrap.dedent(ANSWERS_CDC).replace("{on_genmove}", on_genmove))
    record = banqi_vs_cdc.play((f"{sys.executable} {script} {pid_file}", 7, 1, 0.01, 100,
                                "hard"))
    assert record["score"] is None and record["plies"] == 0
    assert record["end"].startswith("unfinished: ") and message in record["end"], record["end"]
    with pytest.raises(ProcessLookupError):
        os.kill(int(pid_file.read_text()), 0)


def test_an_engine_is_asked_for_its_move_at_a_node_count_or_else_at_a_depth(tmp_path):
    """bench/ataxx_engine_nodes.py --depth plays both sides to a depth: the engine's move then
    comes from `go depth`, not `go nodes 0` (no limit at all)."""
    script = tmp_path / "echoes.py"
    script.write_text(textwrap.dedent(ANSWERS_UAI).replace(
        "{on_go}", "print('bestmove ' + '_'.join(line.split()[1:]), flush=True)"))
    engine = Engine(f"{sys.executable} {script}", silence_s=5)
    assert engine.best("x5o/7/7/7/7/7/o5x x 0 1", 100) == "nodes_100"
    assert engine.best("x5o/7/7/7/7/7/o5x x 0 1", 0, 11) == "depth_11"
    engine.close()


def test_a_pair_its_opening_decided_is_told_apart():
    """Both games of a pair over within a few plies, a side wiped out: 1-1 whoever plays
    better, so the bench gives the score without such pairs too."""
    from bench.ataxx_vs_engine import decided_by_opening, wdl

    def game(pair, ours, end, plies, score):
        return {"pair": pair, "ours": ours, "end": end, "moves": " ".join(["f2"] * plies),
                "score": score}

    rows = [game(0, 0, "no pieces", 5, 0.0), game(0, 1, "no pieces", 3, 1.0),  # decided
            game(1, 0, "no pieces", 5, 1.0), game(1, 1, "score", 80, 0.0),  # only one quick
            game(2, 0, "no pieces", 40, 1.0), game(2, 1, "no pieces", 30, 1.0),  # real wins
            game(3, 0, "score", 90, 0.5), game(3, 1, "move limit", 200, 0.0)]
    assert decided_by_opening(rows) == {0}
    assert wdl([r for r in rows if r["pair"] != 0]) == (3, 1, 2)
