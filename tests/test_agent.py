"""The built-in bots as an agent (ai.agent): messages in process, and as a subprocess."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from ai.agent import Agent, budget_seconds, legal_from_view, playable_games, serve
from game import registry
from game.rules import RulesError
from tests.fakes.cancel import frozen_clock
from tests.fakes.ticking import TickingClock
from tests.matches import midgame

ROOT = Path(__file__).resolve().parent.parent
RACE_AGENT = [sys.executable, str(ROOT / "tests" / "agents" / "race_builtin.py")]


def talk(agent: Agent, *messages) -> list[dict]:
    """Feed lines (dicts are sent as JSON, strings as they are) and read the answers."""
    lines = [m if isinstance(m, str) else json.dumps(m) for m in messages]
    out = io.StringIO()
    serve(agent, io.StringIO("\n".join(lines) + "\n"), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_hello_start_turn(race):
    agent = Agent("normal", 1, games=["race"], now=frozen_clock())
    answers = talk(agent, {"type": "hello", "protocol": "arcade-agent/1"},
                   {"type": "start", "game": "race", "options": {"pile": 9}, "seat": 1},
                   {"type": "turn", "view": {"pile": 6, "to_move": 1, "score": [3, 0]},
                    "legal": [1, 2, 3], "time_ms": 100})
    assert answers[0] == {"type": "hello", "name": "Paper Arcade normal bot", "games": ["race"]}
    assert answers[1] == {"type": "ready"}
    assert answers[2] == {"type": "move", "move": 2}  # the race bot leaves a multiple of four
    assert agent.options == {"pile": 9} and agent.seat == 1


def test_bad_messages_get_errors_and_the_agent_goes_on(race):
    agent = Agent("easy", 1, games=["race"], now=frozen_clock())
    answers = talk(agent, "not json", {"type": "dance"}, [1, 2],
                   {"type": "turn", "view": {"pile": 3}, "legal": [1], "time_ms": 50},
                   {"type": "hello", "protocol": "other/9"},
                   {"type": "start", "game": "chess"},
                   {"type": "start", "game": "race", "options": {"pile": 4}},
                   {"type": "start", "game": "race", "seat": 5},
                   {"type": "start", "game": "race"},
                   {"type": "turn", "view": "x", "legal": [1], "time_ms": 50},
                   {"type": "turn", "view": {"pile": 3}, "legal": [1], "time_ms": -4},
                   {"type": "setup", "view": {}, "time_ms": 50},
                   {"type": "turn", "view": {"pile": "three"}, "time_ms": 50},
                   {"type": "turn", "view": {"pile": 2}, "legal": [1, 2], "time_ms": 50})
    kinds = [a["type"] for a in answers]
    assert kinds == ["error"] * 8 + ["ready"] + ["error"] * 4 + ["move"]
    messages = " | ".join(a.get("message", "") for a in answers)
    for words in ("not JSON", "unknown message type 'dance'", "no game started",
                  "protocol 'other/9'", "cannot play 'chess'", "option 'pile'", "bad seat 5",
                  "bad time_ms", "no setup phase", "cannot be rebuilt from the view"):
        assert words in messages
    assert answers[-1]["move"] == 2


def test_quit_ends_serving(race):
    agent = Agent("easy", 1, games=["race"], now=frozen_clock())
    answers = talk(agent, {"type": "quit"}, {"type": "hello", "protocol": "arcade-agent/1"})
    assert answers == [] and agent.finished


def test_result_forgets_the_game(race):
    agent = Agent("easy", 1, games=["race"], now=frozen_clock())
    talk(agent, {"type": "start", "game": "race"},
         {"type": "result", "view": {"pile": 0}, "winner": 0, "score": [4, 3]})
    assert agent.game is None


def test_budget_leaves_a_margin():
    assert budget_seconds(200) == pytest.approx(0.16)
    assert budget_seconds(1000) == pytest.approx(0.8)
    assert budget_seconds(10_000) == pytest.approx(9.7)
    assert budget_seconds(20) == 0.0


def test_legal_from_view_uses_what_the_rules_offer():
    class ViewRules:
        ID = "v"

        @staticmethod
        def legal_moves_from_view(view, options):
            return list(range(view["n"] + options["extra"]))

    class NoWay:
        ID = "nothing"

        @staticmethod
        def legal_moves_from_view(view, options):
            return list(range(view["n"]))  # KeyError: the view says too little

    assert legal_from_view(ViewRules, {"n": 2}, {"extra": 1}) == [0, 1, 2]
    with pytest.raises(RulesError, match="cannot be rebuilt"):
        legal_from_view(NoWay, {}, {})



@pytest.mark.parametrize("plies", [0, 3])
def test_every_game_answers_a_turn_without_legal(race, plies):
    """docs/protocol.md: "legal" may be omitted, the view always suffices (issue 17)."""
    for game_id in registry.available() + [race]:
        match = midgame(game_id, plies, seed=11)
        seat = match.to_move()
        rules = match.rules
        agent = Agent("easy", 2, games=[game_id], now=TickingClock(0.01))  # 30 looks
        answers = talk(agent, {"type": "start", "game": game_id, "options": match.options,
                               "seat": seat},
                       {"type": "turn", "view": match.view(seat), "time_ms": 400})
        assert answers[0] == {"type": "ready"}, game_id
        assert answers[1]["type"] == "move", (game_id, answers[1])
        wire_legal = [rules.move_to_wire(m) for m in match.legal_moves()]
        assert answers[1]["move"] in wire_legal, game_id
        match.play(answers[1]["move"])


def test_a_planes_view_without_its_phase_still_gets_a_shot():
    """The planes VIEW written before "phase" was added (size, planes, shots, incoming), in a
    turn without "legal": the turn itself says the game is in its play phase (issue 28)."""
    agent = Agent("easy", 3, games=registry.available(), now=TickingClock(0.01))
    view = {"size": 10, "planes": 3, "shots": [[0, "miss"], [44, "body"]],
            "incoming": [[9, "miss"], [10, "miss"]]}
    answers = talk(agent, {"type": "start", "game": "planes", "options": {}, "seat": 0},
                   {"type": "turn", "view": view, "time_ms": 300})
    assert answers[0] == {"type": "ready"}
    assert answers[1]["type"] == "move", answers[1]
    assert answers[1]["move"] in set(range(100)) - {0, 44}


def test_a_turn_view_leaving_out_what_start_said_is_completed_from_start():
    """Fields that repeat an option, the seat to move and the phase may be left out of a view:
    the agent takes them from start and from the message (docs/protocol.md)."""
    agent = Agent("random", 3, games=registry.available(), now=frozen_clock())
    talk(agent, {"type": "start", "game": "dots",
                 "options": {"rows": 2, "cols": 2, "first_reply_rule": True}, "seat": 1})
    turn = {"type": "turn", "view": {"lines": [0]}, "time_ms": 100}
    mirrors = {0, 1, 4, 5, 6, 8, 9, 11}  # line 0's class on 2x2 boxes: every outer line
    moves = {talk(agent, turn)[0]["move"] for _ in range(40)}
    assert moves and moves <= set(range(12)) - mirrors


def test_playable_games_have_bot_modules():
    for game_id in playable_games():
        assert game_id in registry.available()
        assert registry.get(game_id).ai_module().choose


def run_agent(argv, lines, timeout=20):
    proc = subprocess.run(argv, input="".join(json.dumps(m) + "\n" for m in lines),
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    return proc, [json.loads(line) for line in proc.stdout.splitlines()]


def test_agent_subprocess_speaks_only_json_lines():
    proc, answers = run_agent(RACE_AGENT + ["--level", "hard", "--seed", "3"], [
        {"type": "hello", "protocol": "arcade-agent/1"},
        {"type": "start", "game": "race", "options": {"pile": 7}, "seat": 0},
        {"type": "turn", "view": {"pile": 7, "to_move": 0, "score": [0, 0]},
         "legal": [1, 2, 3], "time_ms": 200},
        {"type": "bogus"},
        {"type": "quit"},
        {"type": "hello", "protocol": "arcade-agent/1"}])
    assert proc.returncode == 0
    assert [a["type"] for a in answers] == ["hello", "ready", "move", "error"]
    assert "race" in answers[0]["games"] and answers[2]["move"] == 3


def test_python_m_ai_agent_lists_the_available_games():
    proc, answers = run_agent([sys.executable, "-m", "ai.agent", "--level", "random"], [
        {"type": "hello", "protocol": "arcade-agent/1"}])
    assert proc.returncode == 0
    assert answers[0]["type"] == "hello"
    assert answers[0]["games"] == playable_games()


@pytest.mark.skipif("ataxx" not in playable_games(), reason="Ataxx has not landed yet")
def test_ataxx_agent_answers_without_legal():
    start = {"type": "start", "game": "ataxx", "options": {}, "seat": 0}
    fen = "x5o/7/7/7/7/7/o5x x 0 1"
    turn = {"type": "turn", "view": {"fen": fen}, "time_ms": 300}
    proc, answers = run_agent([sys.executable, "-m", "ai.agent", "--level", "hard"],
                              [{"type": "hello", "protocol": "arcade-agent/1"}, start, turn,
                               {"type": "quit"}])
    assert [a["type"] for a in answers] == ["hello", "ready", "move"]
    rules = registry.rules("ataxx")
    assert answers[2]["move"] in legal_from_view(rules, {"fen": fen}, {})


@pytest.mark.skipif("ataxx" not in playable_games(), reason="Ataxx has not landed yet")
def test_ataxx_agent_answers_within_time_ms_on_its_clock():
    """Hard's search on the agent's own clock, which moves 1 ms at each look: the move comes
    within a few looks of the turn's budget (budget_seconds(300), 0.24 s), whatever the
    machine's load."""
    clock = TickingClock(0.001)
    agent = Agent("hard", 1, games=["ataxx"], now=clock)
    fen = "x5o/7/7/7/7/7/o5x x 0 1"
    answers = talk(agent, {"type": "start", "game": "ataxx", "options": {}, "seat": 0})
    began = clock.t
    answers += talk(agent, {"type": "turn", "view": {"fen": fen}, "time_ms": 300})
    assert [a["type"] for a in answers] == ["ready", "move"]
    assert answers[1]["move"] in legal_from_view(registry.rules("ataxx"), {"fen": fen}, {})
    assert budget_seconds(300) <= clock.t - began < budget_seconds(300) + 0.02


def test_setup_message_answers_a_setup():
    registry.register("hide", "tests.agents.hide", "tests.agents.hide", "tests.agents.hide")
    try:
        agent = Agent("easy", 5, games=["hide"], now=frozen_clock())
        answers = talk(agent, {"type": "start", "game": "hide", "seat": 1},
                       {"type": "setup", "view": {"guesses": [[], []], "to_move": 1},
                        "time_ms": 100})
    finally:
        registry.unregister("hide")
    assert answers[0] == {"type": "ready"}
    assert answers[1]["type"] == "setup" and answers[1]["setup"] in range(4)
