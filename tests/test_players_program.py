"""The host side: outside programs in a seat, and every way a program can misbehave."""

import queue
import sys
import time
from pathlib import Path

import pytest

from game.match import Match, Seat
from players import program as agent_host
from players.base import SeatFailure
from players.bot import AIController
from players.driver import controller_for
from players.program import AgentController, UAIController
from players.table import play_out

ROOT = Path(__file__).resolve().parent.parent
AGENTS = ROOT / "tests" / "agents"


def agent(name: str, *args: str) -> str:
    return " ".join([sys.executable, str(AGENTS / name), *args])


def play_against(command: str, race: str, time_ms: int = 200) -> tuple[Match, AgentController]:
    match = Match(race, {"pile": 9}, 1)
    ctrl = AgentController(command, time_ms=time_ms)
    play_out(match, [ctrl, AIController("easy", 0.02, 1)])
    ctrl.wait_closed()
    return match, ctrl


def test_well_behaved_agent_plays_a_whole_game(race):
    match, ctrl = play_against(agent("random_agent.py"), race)
    assert match.outcome() is not None and match.resigned is None
    assert match.moves and ctrl.proc.proc.returncode == 0  # it got result and quit, and left


def test_builtin_agent_through_the_host(race):
    match, ctrl = play_against(agent("race_builtin.py", "--level", "hard"), race)
    assert match.resigned is None
    assert match.outcome().winner == 0  # first player wins a pile of 9 with best play
    assert ctrl.name == "Paper Arcade hard bot"


@pytest.mark.parametrize("program, words", [
    (("dier.py",), "exited with code 3 (stderr: dier: giving up)"),
    (("garbage.py",), "printed a line that is not JSON: 'I think I will play e4'"),
    (("garbage.py", "unknown"), "sent a message of unknown type 'banana'"),
    (("flood.py",), "flooded its output"),
    (("illegal.py",), "played an illegal move 1003"),
    (("illegal.py", "malformed"), "sent a malformed move {'not': 'a move'}"),
])
def test_misbehaving_agent_loses_with_a_reason(race, program, words):
    # ten minutes a move, far past pytest's timeout: the loss comes from what the program did,
    # at once, never from its clock
    match, ctrl = play_against(agent(*program), race, time_ms=600_000)
    out = match.outcome()
    assert out.winner == 1 and match.resigned == 0 and match.moves == []
    assert words in out.reason and out.reason.startswith("Lost through a failure: program ")
    assert ctrl.proc.proc.poll() is not None  # it was ended


class NoWaiting(queue.Queue):
    """The program's line queue, noting every get that could block."""

    def __init__(self):
        super().__init__(agent_host.QUEUE_CAP)
        self.gets, self.blocking = 0, []

    def get(self, block=True, timeout=None):
        self.gets += 1
        if block:
            self.blocking.append(timeout)
        return super().get(block, timeout)


def test_slow_agent_loses_after_time_plus_a_second_and_poll_never_blocks(race):
    """On the controller's own clock, which only the test moves: the answer is late exactly
    past time_ms + GRACE_MS, and poll() only ever takes from the queue without waiting."""
    clock = [100.0]
    match = Match(race, {"pile": 9}, 1)
    ctrl = AgentController(agent("sleeper.py"), time_ms=200, now=lambda: clock[0])
    ctrl.request(match, 0)
    end = time.monotonic() + 10  # the handshake: a bound on the wait for the program to start
    while ctrl.expect != "move" and time.monotonic() < end:
        assert ctrl.poll() is None
        time.sleep(0.005)
    assert ctrl.expect == "move" and ctrl.deadline == pytest.approx(101.2)  # the turn was sent
    lines = ctrl.proc.lines = NoWaiting()  # sleeper says nothing more before its answer
    clock[0] = 101.19
    for _ in range(3):
        assert ctrl.poll() is None  # not yet late, and no answer: None at once
    clock[0] = 101.21
    with pytest.raises(SeatFailure, match="too slow: no 'move' within 1200 ms"):
        ctrl.poll()
    assert lines.gets >= 4 and lines.blocking == []
    ctrl.close()
    ctrl.wait_closed()
    assert ctrl.proc.proc.poll() is not None


def test_cancel_drops_the_stale_answer(race):
    match = Match(race, {"pile": 9}, 1)
    ctrl = AgentController(agent("random_agent.py"), time_ms=200)
    ctrl.request(match, 0)
    ctrl.cancel()
    match.play(3)  # the position changed while the agent was thinking
    match.play(1)
    ctrl.request(match, 0)
    decision = None
    deadline = time.monotonic() + 8
    while decision is None and time.monotonic() < deadline:
        decision = ctrl.poll()
        time.sleep(0.005)
    assert decision is not None and decision.move in match.legal_moves()
    assert ctrl.skip == 0  # the first answer came and was thrown away
    ctrl.close()
    ctrl.wait_closed()


def test_hello_without_the_game_fails(race, tmp_path):
    script = tmp_path / "chess_only.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    print(json.dumps({'type': 'hello', 'name': 'c', 'games': ['chess']}), flush=True)\n")
    match, _ = play_against(f"{sys.executable} {script}", race)
    assert "does not play race (it plays: chess)" in match.outcome().reason


def test_programs_that_cannot_start(race):
    for command, words in (("no-such-program-xyz", "cannot start"),
                           ("", "no command line"), ("'unclosed", "cannot read the command")):
        match, _ = play_against(command, race)
        assert words in match.outcome().reason


def test_handshake_has_its_own_limit(race, tmp_path):
    script = tmp_path / "mute.py"
    script.write_text("import time\ntime.sleep(30)\n")
    match = Match(race, {"pile": 9}, 1)
    ctrl = AgentController(f"{sys.executable} {script}", time_ms=100, startup_ms=300)
    play_out(match, [ctrl, AIController("easy", 0.02, 1)])
    assert "no 'hello' within 300 ms" in match.outcome().reason


def test_seat_kind_agent_and_the_uai_prefix(race):
    ctrl = controller_for(Seat("agent", "p", command="uai:some-engine --threads 1"))
    assert isinstance(ctrl, UAIController) and ctrl.command == "some-engine --threads 1"
    assert isinstance(controller_for(Seat("agent", "p", command="prog")), AgentController)
    assert isinstance(agent_host.program_controller("uai: x"), UAIController)
    match = Match(race, None, 1)
    ctrl.request(match, 0)
    with pytest.raises(SeatFailure, match="only Ataxx"):
        ctrl.poll()


def test_output_left_unread_is_capped(race):
    match = Match(race, {"pile": 9}, 1)
    ctrl = AgentController(agent("flood.py", "lines"), time_ms=3000)
    ctrl.request(match, 0)
    deadline = time.monotonic() + 5
    while ctrl.expect != "move" and time.monotonic() < deadline:
        assert ctrl.poll() is None  # the handshake
        time.sleep(0.005)
    while not ctrl.proc.flooded and time.monotonic() < deadline:
        time.sleep(0.05)  # the loop is busy elsewhere; the program keeps printing
    with pytest.raises(SeatFailure, match="flooded its output: printed more than 10000 lines"):
        ctrl.poll()
    ctrl.wait_closed()
    assert ctrl.proc.lines.qsize() <= agent_host.QUEUE_CAP
    assert ctrl.proc.proc.poll() is not None


def _has(module: str) -> bool:
    import importlib.util
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


needs_ataxx = pytest.mark.skipif(not _has("game.rules.ataxx"), reason="Ataxx not landed yet")


def uai(*args: str) -> str:
    return "uai:" + agent("uai_engine.py", *args)


def ataxx_game(command: str, time_ms: int = 200, plies: int = 4) -> tuple[Match, object]:
    """A few plies of Ataxx: the program as x against the random bot, then it stops."""
    match = Match("ataxx", None, 1)
    ctrl = controller_for(Seat("agent", "engine", command=command))
    ctrl.time_ms = time_ms
    other = AIController("random", 0.0, 1)
    controllers = [ctrl, other]
    while not match.over and len(match.moves) < plies:
        seat = match.to_move()
        controllers[seat].request(match, seat)
        deadline = time.monotonic() + 10
        decision = None
        while decision is None and time.monotonic() < deadline:
            try:
                decision = controllers[seat].poll()
            except SeatFailure as exc:
                match.resign(seat, str(exc))
                break
            time.sleep(0.005)
        if decision is None:
            break
        match.play(decision.move)
    ctrl.close()
    other.close()
    ctrl.wait_closed()
    return match, ctrl


@needs_ataxx
def test_uai_engine_plays_ataxx():
    match, ctrl = ataxx_game(uai())
    assert len(match.moves) == 4 and match.resigned is None
    assert ctrl.proc.proc.returncode == 0  # quit was sent and obeyed


@needs_ataxx
@pytest.mark.parametrize("mode, words", [
    ("sleep", "too slow: no 'bestmove' within 1200 ms"),
    ("info", "flooded its output"),
    ("illegal", "played an illegal move 'a1a1'"),
    ("malformed", "sent a malformed move 'z9'"),
    ("die", "exited with code 4"),
])
def test_misbehaving_uai_engine_loses(mode, words):
    match, _ = ataxx_game(uai(mode))
    assert match.resigned == 0 and words in match.outcome().reason


@needs_ataxx
def test_a_uai_engine_may_write_its_pass_as_pass():
    """AtaxxDotCpp answers "bestmove pass" where UAI says 0000: it lost every game in which
    it had to pass, as a malformed move, and the engine bench counted those as our wins."""
    match = Match("ataxx", None, 1)
    match.states = [match.rules.from_fen("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1")]
    ctrl = controller_for(Seat("agent", "engine", command=uai("pass")))
    ctrl.time_ms = 2000
    try:
        ctrl.request(match, 0)
        decision, deadline = None, time.monotonic() + 20
        while decision is None and time.monotonic() < deadline:
            decision = ctrl.poll()
            time.sleep(0.005)
    finally:
        ctrl.close()
        ctrl.wait_closed()
    assert decision is not None and decision.move == "0000"
    match.play(decision.move)
    assert match.to_move() == 1


@needs_ataxx
def test_builtin_agent_plays_ataxx_through_the_host():
    match, ctrl = ataxx_game(f"{sys.executable} -m ai.agent --level easy", time_ms=200)
    assert len(match.moves) == 4 and match.resigned is None


@pytest.mark.skipif(not (_has("ai.uai") and _has("game.rules.ataxx")),
                    reason="python -m ai.uai not landed yet")
def test_the_arcade_uai_engine_through_the_host():
    match, _ = ataxx_game(f"uai:{sys.executable} -m ai.uai", time_ms=200)
    assert len(match.moves) == 4 and match.resigned is None


@pytest.fixture
def hide():
    from game import registry
    registry.register("hide", "tests.agents.hide", "tests.agents.hide", "tests.agents.hide")
    yield "hide"
    registry.unregister("hide")


def test_setup_phase_through_the_host(hide):
    for seats in ((0, 1), (1, 0)):
        match = Match(hide, None, 4)
        ctrls = [None, None]
        ctrls[seats[0]] = AgentController(agent("race_builtin.py", "--level", "easy"), 200)
        ctrls[seats[1]] = AIController("easy", 0.02, 2)
        play_out(match, ctrls)
        ctrls[seats[0]].wait_closed()
        assert match.resigned is None and match.outcome() is not None
        record = match.to_record()
        assert all(m in range(4) for m in record["moves"][:2])  # both seats hid a token


def test_invalid_setup_loses(hide):
    match = Match(hide, None, 4)
    play_out(match, [AgentController(agent("illegal.py"), 200), AIController("easy", 0.02, 2)])
    reason = match.outcome().reason
    assert match.resigned == 0 and "sent an invalid setup 'under the carpet'" in reason
