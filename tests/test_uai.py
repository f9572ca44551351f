"""`python -m ai.uai` as a subprocess, as a UAI GUI would drive it."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def talk(lines: list[str], timeout: float = 30) -> list[str]:
    run = subprocess.run([sys.executable, "-m", "ai.uai"], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, cwd=ROOT, timeout=timeout)
    assert run.returncode == 0, run.stderr
    return run.stdout.splitlines()


def test_handshake_perft_and_go():
    out = talk(["uai", "isready", "position startpos", "perft 4",
                "position fen x5o/7/2-1-2/7/2-1-2/7/o5x o 0 1", "perft 3",
                "position startpos moves g2 a2", "go movetime 200", "isready", "quit"])
    assert out[:3] == ["id name Paper Arcade Ataxx", "id author Paper Arcade", "uaiok"]
    assert "readyok" in out and "perft 4 155888" in out and "perft 3 4184" in out
    best = [line for line in out if line.startswith("bestmove ")]
    assert len(best) == 1 and any(line.startswith("info depth") for line in out)
    from game.rules import ataxx as rules
    s = rules.apply(rules.apply(rules.new_game(), "g2"), "a2")
    assert best[0].split()[1] in rules.legal_moves(s)


def test_bad_input_gets_a_clear_error_and_changes_nothing():
    out = talk(["position startpos moves g2", "frobnicate", "position fen not a fen",
                "position startpos moves g2 zz9", "go sideways 5", "perft x", "perft 1",
                "quit"])
    errors = [line for line in out if line.startswith("info string error")]
    assert len(errors) == 5 and "frobnicate" in errors[0]
    assert "perft 1 16" in out  # after g2 (o to move): the position from the first line


def test_go_depth_and_stop():
    out = talk(["position startpos", "go depth 2", "stop", "go infinite", "stop", "quit"])
    best = [line for line in out if line.startswith("bestmove")]
    assert len(best) == 2
