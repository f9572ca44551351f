"""docs/protocol.md's schemas (docs/schemas/) against what the code sends: every view of real
games for every seat, the moves, setups and options, the messages players/program.py sends to
an agent, and the built-in agent given views with every optional field left out."""

from __future__ import annotations

import json
import queue
import random
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from ai.agent import Agent
from ai.base import Budget, decide_setup
from game import registry, replay, saves, storage
from game.match import Match, Seat
from game.rules import planes as planes_rules
from players import program
from players.program import AgentController
from tests.fakes.cancel import frozen_clock
from tests.fakes.ticking import TickingClock
from tests.matches import midgame

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "docs" / "schemas"
PAGE = ROOT / "docs" / "protocol.md"
GAMES = registry.available()
MAX_PLIES = 500  # a random game that runs longer is cut here (every game ends well before)


def _registry() -> Registry:
    resources = [(path.name, Resource.from_contents(json.loads(path.read_text("utf-8"))))
                 for path in sorted(SCHEMAS.glob("*.json"))]
    return Registry().with_resources(resources)


REGISTRY = _registry()


def schema(name: str) -> dict:
    return REGISTRY.contents(name)


@cache
def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(schema(name), registry=REGISTRY)


def check(name: str, value, what: str = "") -> None:
    """Fail with every error the schema finds in value, where it is, and what value it was."""
    errors = sorted(validator(name).iter_errors(value), key=lambda e: list(e.absolute_path))
    assert not errors, f"{name} {what}: " + "; ".join(
        f"at {list(e.absolute_path)}: {e.message[:200]}" for e in errors)


def seat_views(match: Match) -> list[tuple[int | None, dict]]:
    return [(seat, match.view(seat)) for seat in [*range(match.rules.PLAYERS), None]]


def check_views(match: Match) -> None:
    """Every seat's view and the whole truth fit the game's VIEW; the whole truth's own fields
    are in no seat's view; what an agent may take from start instead (docs/protocol.md, "Fields
    a view may leave out") is what start and the message say: a field named as an option has
    its value, "options" all of them, the seat to move is "to_move", and "phase" the phase."""
    name = f"{match.game_id}.view.json"
    truth_only = set(schema(name).get("x-whole-truth", []))
    for seat, view in seat_views(match):
        check(name, view, f"seat {seat} after {len(match.moves)} plies")
        if seat is None:
            continue
        assert not truth_only & set(view), (match.game_id, seat, truth_only & set(view))
        for key in set(view) & set(match.options):
            assert view[key] == match.options[key], (match.game_id, key)
        if "options" in view:
            assert view["options"] == match.options
        if "to_move" in view and match.to_move() is not None:
            assert view["to_move"] == match.to_move(), (match.game_id, seat)
        if "phase" in view:  # what the message says: setup, turn, result
            phase = "setup" if match.setup_pending() else "over" if match.over else "play"
            assert view["phase"] == phase, (match.game_id, seat)


def play_out(game_id: str, options: dict, seed: int, each=check_views) -> Match:
    """A real game with random legal moves (random setups first), each(match) at every ply."""
    match = Match(game_id, options, seed)
    rng = random.Random(seed)
    each(match)
    while match.setup_pending():
        setup = decide_setup(game_id, match.view(match.to_move()), "random",
                             Budget(1, now=frozen_clock()), rng)
        if match.rules.SETUP:
            check(f"{game_id}.setup.json", setup)
        match.play(setup)
        each(match)
    checked: set[str] = set()  # each legal move is checked once, the first time it is legal
    while not match.over and len(match.moves) < MAX_PLIES:
        legal = match.legal_moves()
        for move in legal:
            if json.dumps(move) not in checked:
                check(f"{game_id}.move.json", move)
                checked.add(json.dumps(move))
        match.play(rng.choice(legal))
        each(match)
    return match


def option_sets(game_id: str) -> st.SearchStrategy[dict]:
    """Any choice of the game's declared options."""
    opts = registry.rules(game_id).OPTIONS
    return st.fixed_dictionaries({o.key: st.sampled_from([c for c, _ in o.choices])
                                  for o in opts})


# --- the schema files themselves
def test_every_game_has_its_schemas_and_the_page_links_them():
    page = PAGE.read_text("utf-8")
    for game_id in GAMES:
        parts = ["view", "move", "options"] + (["setup"] if registry.rules(game_id).SETUP else [])
        for part in parts:
            name = f"{game_id}.{part}.json"
            assert (SCHEMAS / name).is_file(), name
            assert f"(schemas/{name})" in page, f"docs/protocol.md does not link {name}"
    for name in ("arcade-agent.host.json", "arcade-agent.agent.json", "match-record.json",
                 "save.json", "replay.json"):
        assert f"(schemas/{name})" in page, name


@pytest.mark.parametrize("path", sorted(SCHEMAS.glob("*.json")), ids=lambda p: p.name)
def test_each_schema_is_a_valid_json_schema(path):
    Draft202012Validator.check_schema(json.loads(path.read_text("utf-8")))


@pytest.mark.parametrize("game_id", GAMES)
def test_options_schema_is_the_rules_options(game_id):
    """Each declared Option is in the schema with its choices and default, and the options
    start sends (normalized) fit it; a value the rules refuse does not."""
    rules = registry.rules(game_id)
    props = schema(f"{game_id}.options.json").get("properties", {})
    for o in rules.OPTIONS:
        assert props[o.key]["enum"] == [c for c, _ in o.choices], o.key
        assert props[o.key]["default"] == o.default, o.key
    normalized = rules.normalize_options({})
    assert set(props) == set(normalized), "options the schema names but start does not send"
    check(f"{game_id}.options.json", normalized)
    assert not validator(f"{game_id}.options.json").is_valid({**normalized, "nonsense": 1})


def test_the_host_schema_names_every_game():
    assert schema("arcade-agent.host.json")["$defs"]["start"]["properties"]["game"]["enum"] \
        == GAMES


# --- real games
@pytest.mark.parametrize("game_id", GAMES)
def test_every_view_of_a_real_game_fits_its_schema(game_id):
    match = play_out(game_id, {}, seed=2028)
    assert match.over, f"{game_id}: no end in {MAX_PLIES} plies"


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_view_fits_for_any_seed_and_options(game_id, data):
    options = data.draw(option_sets(game_id), label="options")
    seed = data.draw(st.integers(0, 2**31 - 1), label="seed")
    play_out(game_id, options, seed)


def test_a_lan_planes_game_fits_too():
    """Seat 1's layout stays on the peer's computer: "hidden" in the record and the views, and
    seat 0's shots at it carry the owner's answers."""
    match = Match("planes", {}, 4)
    rng = random.Random(4)
    truth = decide_setup("planes", match.view(1), "random", Budget(1, now=frozen_clock()), rng)
    for setup in (decide_setup("planes", match.view(0), "random",
                               Budget(1, now=frozen_clock()), rng), "hidden"):
        match.play(setup)
        check_views(match)
    answers = planes_rules.layout_cells(10, truth)
    while not match.over:
        cell = rng.choice(match.legal_moves())
        move = [cell, answers.get(cell, "miss")] if match.to_move() == 0 else cell
        match.play(move)
        check_views(match)
    for move in match.to_record()["moves"]:
        check("planes.move.json", move)
    assert match.view(0)["opponent_layout"] == "hidden"


def test_a_view_the_schema_refuses():
    """The schemas check something: views with a wrong or unknown field are refused."""
    assert not validator("planes.view.json").is_valid({"shots": [[100, "miss"]]})
    assert not validator("planes.view.json").is_valid({"shots": [], "secret": 1})
    assert not validator("ataxx.view.json").is_valid({"fen": "x5o/7/7/7/7/7/o5x z 0 1"})
    assert not validator("banqi.view.json").is_valid(  # clouds without "captured"
        {"board": "~~~~~~~~/????????/????????/????????", "colors": ["red", "black"],
         "hidden": {}})
    assert not validator("jungle.view.json").is_valid({"board": "t5l/7/7/7/7/7/7/7/L5T"})
    assert not validator("g2048.view.json").is_valid({"board": [[3, 0, 0, 0]] * 4})


# --- saves and replays
@pytest.mark.parametrize("game_id", GAMES)
def test_saves_and_replays_fit_their_schemas(game_id):
    """Written and read back: a finished game, and one cut short by an undo (reseeds where the
    game has hidden chance) and a resignation or an agreed draw."""
    finished = play_out(game_id, {}, seed=7, each=lambda match: None)
    cut = midgame(game_id, 6, seed=8)
    cut.undo(1)
    if cut.rules.PLAYERS == 2:
        cut.resign(1, "enough")
    else:
        cut.agree_draw()
    for match in (finished, cut):
        check("match-record.json", match.to_record())
        body = storage.read_file(saves.save(match, "schema"), saves.KIND, saves.FORMAT)
        check("save.json", body)
        check("replay.json", storage.read_file(replay.save_replay(match), replay.KIND,
                                               replay.FORMAT))
        assert Match.from_record(body["match"]).to_record()["moves"] == body["match"]["moves"]
    if cut.rules.CHANCE:
        assert cut.to_record()["reseeds"], game_id


def test_a_record_the_schema_refuses():
    record = Match("dots", {}, 1).to_record()
    assert validator("match-record.json").is_valid(record)
    assert not validator("match-record.json").is_valid({**record, "secret": 1})
    assert not validator("match-record.json").is_valid(
        {**record, "ending": {"loser": 0, "termination": "boredom", "detail": ""}})
    assert not validator("replay.json").is_valid({**record, "date": 0.0, "duration": 1.0})


# --- what players/program.py sends to an agent
class InProcess:
    """Stands in for players.program.ProgramProcess: the built-in agent answers in this process, so
    every line the host writes can be checked and nothing waits on another process."""

    def __init__(self, argv: list[str], now: Callable[[], float]):
        self.agent = Agent("random", 7, now=now)
        self.sent: list[dict] = []
        self.lines: queue.Queue = queue.Queue()
        self.flooded = self.write_error = ""

    def send(self, text: str) -> None:
        message = json.loads(text)
        self.sent.append(message)
        for reply in self.agent.handle(message):
            check("arcade-agent.agent.json", reply)
            self.lines.put(("line", json.dumps(reply), 0.0))

    def take(self):
        try:
            return self.lines.get_nowait()
        except queue.Empty:
            return None

    def exit_text(self) -> str:
        return "exited"

    def close(self, grace: float = 0.0):
        return None


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("legal_cap", [program.LEGAL_CAP, 0], ids=["legal", "legal left out"])
def test_the_messages_the_host_sends_fit_the_protocol(game_id, legal_cap, monkeypatch):
    """AgentControllers in every seat of a real game: each message they send fits
    arcade-agent.host.json, its view the game's VIEW, its legal moves the game's MOVE (with
    the legal list's cap at 0, every turn leaves it out)."""
    monkeypatch.setattr(program, "ProgramProcess", InProcess)
    monkeypatch.setattr(program, "LEGAL_CAP", legal_cap)
    rules = registry.rules(game_id)
    seats = [Seat(kind="agent", name=f"agent {i}", command="agent") for i in range(rules.PLAYERS)]
    match = Match(game_id, {}, 99, seats)
    controllers = [AgentController("python -m ai.agent", time_ms=500)
                   for _ in range(rules.PLAYERS)]
    while not match.over and len(match.moves) < MAX_PLIES:
        seat = match.to_move()
        controllers[seat].request(match, seat)
        decision = None
        for _ in range(10):  # the answers are in the queue already: no waiting
            decision = controllers[seat].poll()
            if decision is not None:
                break
        assert decision is not None, (game_id, controllers[seat].proc.sent[-1])
        match.play(decision.move)
    for c in controllers:
        c.close()
    assert match.over
    for seat, c in enumerate(controllers):
        sent = c.proc.sent
        kinds = [m["type"] for m in sent]
        assert kinds[:2] == ["hello", "start"] and kinds[-2:] == ["result", "quit"], kinds
        assert set(kinds[2:-2]) <= {"setup", "turn"} and "turn" in kinds
        assert all(("legal" in m) == (legal_cap > 0) for m in sent if m["type"] == "turn")
        for m in sent:
            check("arcade-agent.host.json", m, m["type"])
            if "view" in m:
                check(f"{game_id}.view.json", m["view"], m["type"])
                if m["type"] == "result":
                    assert m["view"] == match.view(seat)
            for move in m.get("legal", []):
                check(f"{game_id}.move.json", move)
        check(f"{game_id}.options.json", sent[1]["options"])
        assert sent[1]["seat"] == seat


# --- the built-in agent answers any documented view
def minimal_view(game_id: str, view: dict) -> dict:
    """The view with every optional field left out: only what the schema requires, the
    requirements that hold for this view (its if/then) included."""
    s = schema(f"{game_id}.view.json")
    keep = set(s.get("required", []))
    for rule in s.get("allOf", []):
        if Draft202012Validator(rule["if"]).is_valid(view):
            keep |= set(rule["then"].get("required", []))
    small = {k: v for k, v in view.items() if k in keep}
    check(f"{game_id}.view.json", small, "(minimal)")
    return small



def ask_minimal(game_id: str, match: Match, with_legal: bool) -> None:
    seat = match.to_move()
    rules = match.rules
    view = minimal_view(game_id, match.view(seat))
    turn = {"type": "turn", "view": view, "time_ms": 150}
    if with_legal:
        turn["legal"] = match.legal_moves()
    agent = Agent("easy", 5, now=TickingClock(0.01))  # about a dozen looks at its clock
    answers = [r for m in ({"type": "start", "game": game_id, "options": match.options,
                            "seat": seat}, turn) for r in agent.handle(m)]
    assert answers[0] == {"type": "ready"}
    assert answers[1]["type"] == "move", (game_id, view, answers[1])
    check(f"{game_id}.move.json", answers[1]["move"])
    legal = [rules.move_to_wire(m) for m in match.legal_moves()]
    assert answers[1]["move"] in legal, (game_id, view, answers[1]["move"])


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("with_legal", [False, True], ids=["no legal", "legal"])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_agent_answers_a_turn_with_every_optional_field_left_out(game_id, with_legal,
                                                                      data):
    options = data.draw(option_sets(game_id), label="options")
    seed = data.draw(st.integers(0, 2**31 - 1), label="seed")
    plies = data.draw(st.integers(0, 40), label="plies")
    ask_minimal(game_id, midgame(game_id, plies, seed, options), with_legal)


@pytest.mark.parametrize("game_id, options, plies", [
    ("dots", {"first_reply_rule": True}, 1),  # the rule forbids half the board right now
    ("jungle", {"repetition": "forbidden"}, 30),
    ("banqi", {"fog": True}, 20),  # clouds: "captured" is then required
    ("planes", {"equal_turns": True}, 5),
])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_agent_answers_minimal_views_where_the_options_matter(game_id, options, plies,
                                                                  seed):
    match = midgame(game_id, plies, seed, options)
    ask_minimal(game_id, match, with_legal=False)


def test_a_minimal_setup_view_gets_a_valid_setup():
    for game_id in GAMES:
        if not registry.rules(game_id).SETUP:
            continue
        match = Match(game_id, {}, 5)
        view = minimal_view(game_id, match.view(0))
        agent = Agent("easy", 5, now=TickingClock(0.01))
        agent.handle({"type": "start", "game": game_id, "options": {}, "seat": 0})
        answer = agent.handle({"type": "setup", "view": view, "time_ms": 300})[0]
        assert answer["type"] == "setup", answer
        check(f"{game_id}.setup.json", answer["setup"])
        match.play(answer["setup"])
