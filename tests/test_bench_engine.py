"""The Ataxx benches' UAI reader (bench/ataxx_engine_depth.Engine) against engines that hang,
flood or die: each run ends with a message naming what the engine did, and no engine stays."""

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
    "hangs": ("pass", "said nothing for 0.2 s before 'bestmove'"),
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
    engine = Engine(f"{sys.executable} {script}", silence_s=0.2, max_lines=50)
    with pytest.raises(SystemExit) as stop:
        engine.best("x5o/7/7/7/7/7/o5x x 0 1", 100)
    assert message in str(stop.value)
    assert engine.proc.exited.wait(10)  # killed, not left running


def test_an_engine_that_answers_gives_its_move(tmp_path):
    script = tmp_path / "answers.py"
    script.write_text(textwrap.dedent(ANSWERS_UAI).replace(
        "{on_go}", "print('info depth 1 nodes 7'); print('bestmove b6', flush=True)"))
    engine = Engine(f"{sys.executable} {script}", silence_s=5)
    assert engine.best("x5o/7/7/7/7/7/o5x x 0 1", 100) == "b6"
    assert engine.nodes("x5o/7/7/7/7/7/o5x x 0 1", 1) == 7
    engine.close()
    assert engine.proc.exited.is_set()
