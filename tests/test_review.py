"""The review (ai/review.py, players/review.py): a known blunder in each game is flagged, Hard's
own games are not, and the review is kept in the replay and read back.

Every search here is bounded by a limit (plies, shots), never by the clock: the budgets are
far longer than the searches take."""

import json
import random
import threading

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from ai import g2048, planes
from ai.base import Budget, decide_setup
from ai.review import Review, Settings, classify, review, thresholds
from game import replay
from game.match import Match
from game.rules import planes as rules_planes
from players import review as cli
from tests.fakes.cancel import frozen_clock
from tests.matches import midgame, planes_race_to_the_end, planes_sure_to_end_next

DEPTH = Settings(seconds=600.0, limit=3)


@pytest.fixture
def pure(monkeypatch):
    """The pure-Python searches (the compiled kernels' reference): no compiling in a test."""
    monkeypatch.setenv("PAPER_ARCADE_NO_NUMBA", "1")


def reviewed(match: Match, settings: Settings = DEPTH, first: int = 0) -> dict:
    """The review of the match's replay, written and read back as the arcade would."""
    back, _ = replay.load_replay(replay.save_replay(match, 1.0))
    job = Review(back, settings, first=first)
    for _ in job.run():
        pass
    assert job.result is not None
    return job.result


def played(game: str, moves: list, options: dict | None = None, seed: int = 1) -> Match:
    match = Match(game, options, seed)
    for move in moves:
        match.play(move)
    return match


def test_a_dots_move_that_gives_away_a_long_chain_is_a_blunder(pure):
    # 2x3 boxes; seat 1 to move: line 6 keeps the game won, line 4 opens a chain of three
    match = played("dots", [9, 1, 7, 2, 5, 10, 15, 4], {"rows": 2, "cols": 3})
    ply = reviewed(match)["plies"][7]
    assert ply["seat"] == 1 and ply["class"] == "blunder" and ply["exact"]
    assert ply["before"] == 1.0 and ply["after"] == 0.0 and ply["best"] != 4


def test_an_ataxx_move_that_leaves_a_corner_is_a_blunder(pure):
    moves = ["f2", "b2", "f3", "f6", "e1", "g6", "b6", "a2", "d1", "c1"]
    doc = reviewed(played("ataxx", moves + ["g1e3"]))  # x jumps out of its corner g1
    ply = doc["plies"][10]
    assert ply["class"] == "blunder" and ply["best"] != "g1e3"
    assert ply["drop"] >= doc["thresholds"]["blunder"] and ply["after"] < 0.2


def test_a_jungle_move_that_leaves_a_piece_en_prise_is_a_blunder():
    moves = ["a3a4", "b8b7", "c3d3", "c7d7", "d3d4", "d7d6", "d4d5", "e7d7", "e3d3", "f8f7",
             "d3d4", "f7e7", "a1a2", "a9a8", "a2a3", "a8b8", "a3b3", "b8c8", "b3c3", "d7d8",
             "c3c7", "c8b8"]
    match = played("jungle", moves + ["c7b7"])  # the lion steps next to the elephant on a7
    assert "a7b7" in match.legal_moves()  # which takes it
    ply = reviewed(match)["plies"][22]
    assert ply["class"] == "blunder" and ply["best"] != "c7b7" and len(ply["line"]) >= 2


LAYOUTS = [[[5, 7, "up"], [3, 5, "down"], [5, 5, "right"]],
           [[3, 2, "down"], [7, 6, "left"], [2, 9, "right"]]]
SHOTS = [33, 33, 23, 23, 32, 32, 73, 34, 63, 54, 67, 55, 76, 35, 37, 87]


def test_a_planes_shot_no_layout_left_can_hold_is_a_blunder():
    match = played("planes", LAYOUTS + SHOTS + [0], seed=4)
    view = match.rules.view(match.states[18], 0)
    live = planes.consistent(10, 3, view["shots"])
    _, codes = match.rules.layouts(10, 3)
    assert len(live) == 12 and (codes[live][:, 0] == 0).all()  # cell 0: a miss in every one
    doc = reviewed(match, Settings(600.0, 2))
    ply = doc["plies"][18]
    assert ply["class"] == "blunder" and ply["exact"] and ply["best"] != 0
    assert ply["details"]["head"] == 0.0 and ply["details"]["hit"] == 0.0
    assert doc["plies"][0]["kind"] == "setup"
    # after the game, the truth beside it: the miss it had to be, against the best shot's answer
    assert ply["truth"]["after"] <= ply["truth"]["best_after"]


def test_a_2048_move_that_locks_the_board_is_a_blunder_and_where_it_was_lost():
    g2048.KERNEL.load()
    moves = json.loads(G2048_MOVES)
    match = played("g2048", moves, seed=8)
    assert "left" in match.legal_moves() and "right" in match.legal_moves()
    locked = match.rules.apply(match.state, "left")
    match.play("left")
    doc = reviewed(match, Settings(600.0, 1), first=90)
    ply = doc["plies"][97]
    assert ply["class"] == "blunder" and ply["before"] == 1.0 and ply["after"] == 0.0
    assert ply["best"] == "right" and ply["exact"] is False
    assert doc["summary"]["lost_at"]["0"] == 97
    assert doc["plies"][0]["kind"] == "skipped" and doc["first"] == 90
    # the board it left: every spawn ends the game, or leaves one move that does
    assert len(match.rules.legal_moves(locked)) <= 1


def test_a_fox_hunt_probe_on_a_certainly_empty_square_is_a_blunder():
    moves = [0, 1, 3, 8, 54, 32, 2, 24, 48, 36, 45, 63, 25]
    match = played("foxhunt", moves + [4], {"size": 8})
    doc = reviewed(match, first=12)
    ply = doc["plies"][13]
    assert doc["unit"] == "probes" and doc["better"] == -1
    assert ply["details"]["fox"] == 0.0 and ply["exact"]
    assert ply["after"] == ply["before"] + 1  # a probe wasted, exactly
    assert ply["class"] == "blunder"


def hard_game(game: str, plies: int, seed: int, limit: int) -> Match:
    """Hard against itself at a fixed depth: each move the best of its own appraisal."""
    match = Match(game, None, seed)
    rng = random.Random(seed)
    match.play(rng.choice(match.legal_moves()))  # a different opening each game
    while not match.over and len(match.moves) < plies:
        view = match.view(match.to_move())
        match.play(match.rules.move_from_wire(
            match.info.ai_module().appraise(view, [], Budget(600, now=frozen_clock()),
                                            limit).best))
    return match


@pytest.mark.parametrize("game", ["ataxx", "jungle"])
def test_hard_against_itself_is_seldom_marked_a_blunder(game, pure):
    judged = blunders = 0
    for seed in range(3):
        doc = reviewed(hard_game(game, 24, seed, 2), Settings(600.0, 3), first=1)
        moves = [p for p in doc["plies"] if p["kind"] == "move"]
        judged += len(moves)
        blunders += sum(1 for p in moves if p["class"] == "blunder")
    assert judged >= 60
    assert blunders <= 0.05 * judged, (blunders, judged)


def test_a_review_is_kept_in_the_replay_and_reused(tmp_path, capsys):
    path = replay.save_replay(played("jungle", ["c3d3", "c7d7"]), 1.0, tmp_path)
    settings = ["--seconds", "600", "--limit", "2", "--quiet"]
    assert cli.main([str(path), *settings, "--out", str(tmp_path / "a.json")]) == 0
    first = json.loads((tmp_path / "a.json").read_text())
    assert [p["ply"] for p in first["plies"]] == [0, 1]
    assert {"before", "after", "best", "class", "exact", "line"} <= set(first["plies"][0])
    _, body = replay.load_replay(path)
    assert replay.stored_review(body)["plies"] == first["plies"]
    # a second opening reads it back: a stored review is returned even if it were wrong now
    body["review"]["plies"][0]["class"] = "blunder"
    replay.store_review(path, body["review"])
    assert cli.main([str(path), *settings]) == 0
    assert json.loads(capsys.readouterr().out)["plies"][0]["class"] == "blunder"
    # other settings review again
    assert cli.main([str(path), "--seconds", "600", "--limit", "1", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["plies"][0]["class"] != "blunder"


def test_a_replay_without_a_review_opens_and_a_review_does_not_change_the_game(tmp_path, pure):
    match = played("ataxx", ["f2", "b2"])
    path = replay.save_replay(match, 1.0, tmp_path)
    _, body = replay.load_replay(path)
    assert replay.stored_review(body) is None
    replay.store_review(path, review(match, Settings(600.0, 1)))
    back, body = replay.load_replay(path)
    assert back.moves == match.moves and body["result"]["line"] == match.result_line()
    assert replay.stored_review(body)["game"] == "ataxx"


def test_a_review_reports_progress_and_stops_when_cancelled():
    match = played("jungle", ["c3d3", "c7d7", "d3d4", "d7d6"])
    cancel = threading.Event()
    job = Review(match, Settings(600.0, 1), cancel)
    steps = []
    for step in job.run():
        steps.append((step.done, step.total))
        if step.done == 2:
            job.cancel()
    # 4 positions, and the settling pass over them (Jungle hides nothing and leaves nothing to
    # chance)
    assert steps == [(1, 8), (2, 8)] and job.result is None and cancel.is_set()


def test_classes_follow_the_thresholds():
    limits = thresholds("ataxx")
    assert limits["inaccuracy"] < limits["mistake"] < limits["blunder"]
    assert classify(0.0, limits) == "ok"
    assert classify(limits["mistake"], limits) == "mistake"
    assert classify(limits["blunder"] + 0.01, limits) == "blunder"
    assert thresholds("no such game") == {"inaccuracy": 0.10, "mistake": 0.20, "blunder": 0.30}


G2048_MOVES = """["down", "left", "down", "down", "up", "right", "up", "up", "down", "up", "down",
"left", "up", "right", "down", "right", "right", "down", "right", "down", "left", "up", "right",
"down", "up", "left", "right", "right", "right", "left", "up", "left", "up", "up", "right",
"right", "up", "up", "left", "down", "right", "up", "right", "left", "right", "up", "down", "up",
"right", "up", "down", "right", "up", "down", "right", "right", "down", "left", "right", "down",
"up", "up", "left", "right", "down", "right", "down", "down", "left", "down", "right", "left",
"up", "down", "left", "down", "up", "left", "down", "up", "left", "down", "left", "left",
"right", "down", "left", "up", "right", "up", "down", "up", "down", "up", "left", "down", "up"]"""


def test_the_command_line_reviews_a_replay_the_arena_wrote(tmp_path, capsys, pure):
    from players.arena import Job, play_game
    game = play_game(Job(0, "dots", {"rows": 2, "cols": 2}, [], 5, ["a", "b"], "builtin:random",
                         "builtin:easy", 20, str(tmp_path)))
    assert game.replay and not game.error
    assert cli.main([game.replay, "--seconds", "600", "--quiet", "--no-store"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["replay"] == game.replay and len(doc["plies"]) == game.plies == 12
    assert all(p["exact"] and p["class"] in ("ok", "inaccuracy", "mistake", "blunder")
               for p in doc["plies"])
    _, body = replay.load_replay(game.replay)
    assert replay.stored_review(body) is None  # --no-store


def test_fox_hunt_searches_the_last_few_placements_exactly():
    from ai.foxhunt import ExactHunt
    hunt = ExactHunt(8, Budget(600, now=frozen_clock()))
    live = frozenset({frozenset({1, 2}), frozenset({1, 3})})
    # two probes at least, and a coin flip whether the second fox needs a third
    assert hunt.cost(live, frozenset()) == 2.5
    assert hunt.cost(live, frozenset({1})) == 1.5
    assert hunt.probe(live, frozenset(), 40) == 3.5  # 40 sees neither 2 nor 3: a probe lost


def test_a_planes_review_at_the_smallest_limit_still_judges_every_shot():
    rng = random.Random(2)
    match = Match("planes", None, 2)
    while len(match.moves) < 6:
        if match.setup_pending():
            match.play(decide_setup("planes", match.view(match.to_move()), "random",
                                    Budget(0.0, now=frozen_clock()), rng))
        else:
            match.play(rng.choice(match.legal_moves()))
    doc = review(match, Settings(600.0, 1))
    assert len(doc["plies"]) == 6
    assert all(e["kind"] in ("setup", "move") for e in doc["plies"])


# --- settling: where nothing is hidden and nothing is chance, a move's values are the next
# position's (a Jungle move judged "the best, 49%" right before the other side's "79%" left a
# 28-point fall on the graph charged to no one)
SETTLING = [("ataxx", None), ("jungle", None), ("dots", {"rows": 2, "cols": 3})]


@pytest.mark.parametrize("game, options", SETTLING)
@settings(max_examples=8, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(seed=st.integers(0, 10_000), plies=st.integers(1, 14))
def test_a_move_is_judged_by_the_position_it_left_as_the_graph_shows_it(game, options, seed,
                                                                     plies):
    match = Match(game, options, seed)
    rng = random.Random(seed)
    while len(match.moves) < plies and not match.over:
        match.play(rng.choice(match.legal_moves()))
    doc = reviewed(match, Settings(seconds=600.0, limit=2))
    moves = [e for e in doc["plies"] if e["kind"] == "move"]
    for e in moves:
        assert e["after"] <= e["before"] + 1e-9, e  # the position is worth its move at least
        # (in a decided position, the points the move gave up)
        assert e["drop"] == pytest.approx(max(e["before"] - e["after"], e["given"]), abs=2e-4)
        assert e["class"] == classify(e["drop"], doc["thresholds"])
        mine = e["before"] if e["seat"] == 0 else 1.0 - e["before"]
        assert doc["graph"][e["ply"]] == pytest.approx(mine, abs=2e-4)
        if e["ply"] + 1 < len(moves):  # worth what the next mover found, on the mover's side
            nxt = moves[e["ply"] + 1]["before"]
            theirs = nxt if moves[e["ply"] + 1]["seat"] == e["seat"] else 1.0 - nxt
            assert e["after"] == pytest.approx(theirs, abs=2e-4), (e, moves[e["ply"] + 1])
        elif match.over:  # the last move: worth the result
            out = match.outcome()
            result = 0.5 if out.winner is None else float(out.winner == e["seat"])
            assert e["after"] == pytest.approx(result, abs=2e-4)


def test_a_decided_dots_position_still_tells_its_moves_apart_by_the_boxes(pure):
    """Won or lost whatever is drawn, every move read "as good as the best (exact)", the box
    given away too: a solved position's moves carry the boxes each side ends with, the best's
    never fewer for the mover, and the review's words give both where they differ."""
    from ai import dots
    from client.scenes.review import ReviewScene
    told = []
    for seed in range(6):
        rng = random.Random(seed)
        match = Match("dots", {"rows": 2, "cols": 2}, seed)
        while not match.over:
            legal = match.legal_moves()
            a = dots.appraise(match.view(match.to_move()), legal,
                              Budget(600.0, now=frozen_clock()), 3)
            if a.exact:
                best = a.figures["best"]["boxes"]
                assert sum(best) == 4
                for score, d in zip(a.scores, a.details):
                    assert sum(d["boxes"]) == 4
                    assert d["boxes"][0] - d["boxes"][1] <= best[0] - best[1]
                    if d["boxes"] != best and score == a.value:  # only the boxes tell
                        told.append((d, best))
            match.play(rng.choice(legal))
    assert told
    d, best = told[0]
    words = ReviewScene.truth_text(object.__new__(ReviewScene),
                                   {"details": d, "figures": {"best": {"boxes": best}}})
    assert words == (f"Worked out to the end: {d['boxes'][0]}-{d['boxes'][1]} boxes with this "
                     f"move, {best[0]}-{best[1]} with the best.")


@settings(max_examples=6, deadline=None, phases=[Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), size=st.sampled_from([(2, 2), (3, 3)]))
def test_in_a_decided_dots_game_a_move_that_gives_boxes_away_is_marked(pure, seed, size):
    """A lost 3x3 game (0-9) was marked without a mistake: won or lost whatever is drawn, the
    win chance cannot fall, so every move was "as good as the best". Where the position is
    solved, a move's drop is at least the share of the boxes it gives up against the best,
    and it is marked by the game's limits as any drop is."""
    rows, cols = size
    rng = random.Random(seed)
    match = Match("dots", {"rows": rows, "cols": cols}, seed)
    while not match.over:
        match.play(rng.choice(match.legal_moves()))
    doc = reviewed(match)
    limits, boxes = doc["thresholds"], rows * cols
    decided = 0
    for e in doc["plies"]:
        if not e["exact"]:
            continue
        mine, best = e["details"]["boxes"], e["figures"]["best"]["boxes"]
        given = (best[0] - mine[0]) / boxes
        assert e["given"] == pytest.approx(given, abs=1e-4)
        assert e["drop"] == pytest.approx(max(e["before"] - e["after"], given), abs=1e-4)
        assert e["class"] == classify(e["drop"], limits)
        if e["before"] == e["after"] and given > 0:
            decided += 1
            assert e["class"] != "ok" or given < limits["inaccuracy"]
    for seat in range(2):  # the counts follow the marks
        mine = [e for e in doc["plies"] if e["kind"] == "move" and e["seat"] == seat]
        assert sum(doc["summary"]["counts"][str(seat)].values()) == len(mine)


def test_a_lost_3x3_game_given_away_box_by_box_is_marked(pure):
    """The case the players met: seat 0 loses 0-9 to Hard on 3x3, from the first move lost
    whatever it draws, and the review found no mistake in it."""
    from ai import dots
    rng = random.Random(4)
    match = Match("dots", {"rows": 3, "cols": 3}, 4)
    while not match.over:
        legal = match.legal_moves()
        if match.to_move() == 0:  # the move that keeps the fewest boxes
            a = dots.appraise(match.view(0), legal, Budget(600.0, now=frozen_clock()), 3)
            worst = min(d["boxes"][0] for d in a.details)
            match.play(rng.choice([m for m, d in zip(legal, a.details)
                                   if d["boxes"][0] == worst]))
        else:
            a = dots.appraise(match.view(1), legal, Budget(600.0, now=frozen_clock()), 3)
            match.play(a.best)
    assert match.state.scores == (0, 9)
    doc = reviewed(match)
    mine = [e for e in doc["plies"] if e["kind"] == "move" and e["seat"] == 0]
    assert all(e["before"] == e["after"] == 0.0 for e in mine)  # lost from the first move
    assert sum(e["class"] != "ok" for e in mine) >= 2
    assert doc["summary"]["counts"]["0"]["ok"] < len(mine)
    assert all(e["class"] == "ok" for e in doc["plies"] if e["kind"] == "move"
               and e["seat"] == 1)  # Hard gave nothing away


@settings(max_examples=16, deadline=None, phases=[Phase.generate])
@given(seed=st.integers(0, 10**6), equal_turns=st.booleans(), mover=st.sampled_from([0, 1]),
       left=st.sampled_from([1, 2]), evening=st.booleans())
def test_a_planes_race_the_opponent_ends_next_is_lost_but_for_this_shot(seed, equal_turns,
                                                                          mover, left, evening):
    """The review gave a shot a 2-10% chance from the race's logistic where the opponent knew
    where its last head was: its next shot ends the game, so the mover's only chance is to find
    its own last head now (the shot's chance of it), and with two heads left no shot has one.
    Under "equal turns" the first player's last head leaves the second its evening shot: the
    first's own last head is then worth a draw against a sure evening shot, the second's
    position before it is no sure loss (the race judges it), and the evening shot itself,
    the game's last, is worth a draw if it finds the second's last head (it was valued a win,
    and a miss 4.7%)."""
    evening = evening and equal_turns and mover == 1
    match = planes_race_to_the_end(seed, equal_turns, mover, left, evening)
    view = match.view(mover)
    assume(evening or planes_sure_to_end_next(view))
    cells = rules_planes.legal_moves(match.state)
    a = planes.appraise(view, cells, Budget(600, now=frozen_clock()), 2)
    if equal_turns and mover == 1 and not evening:
        assert a.value > 0.0  # its evening shot comes after theirs
        return
    for worth, d in zip(a.scores, a.details):
        if left > 1:
            assert worth == 0.0
        elif equal_turns:  # a draw: the second evens the count, or the first's is evened
            assert worth == pytest.approx(0.5 * d["head"])
        else:
            assert worth == pytest.approx(d["head"])
    assert a.value == pytest.approx(max(a.scores)) and a.best in cells


def _evening_by_layouts(view: dict, cell: int) -> float:
    """What seat 1's shot at `cell` is worth before a sure last head of seat 0 under "equal
    turns", layout by layout: each layout the shooter's shots agree with is as likely; it
    answers the shot; a last head wins; else the evening shot goes where most of the layouts
    that answered alike have a head, and a last head there draws."""
    size, n, shots = view["size"], view["planes"], view["shots"]
    _, codes = rules_planes.layouts(size, n)
    live = [tuple(int(v) for v in row) for row in codes[planes.consistent(size, n, shots)]]
    left = n - sum(a == "head" for _c, a in shots)
    called = {c for c, _a in shots} | {cell}
    total = 0.0
    for layout in live:
        found = layout[cell] == 2
        if left - found == 0:
            total += 1.0
        elif left - found == 1:
            alike = [other for other in live if other[cell] == layout[cell]]
            counts = {c: sum(o[c] == 2 for o in alike) for c in range(size * size)
                      if c not in called}
            evening = max(counts, key=lambda c: (counts[c], -c))
            total += 0.5 * (layout[evening] == 2)
    return total / len(live)


@settings(max_examples=10, deadline=None, phases=[Phase.generate])
@given(seed=st.integers(0, 10**6), left=st.sampled_from([1, 2]))
def test_the_second_players_shot_before_the_evening_shot_is_worth_the_two_shots(seed, left):
    """Under "equal turns", where the first player's next shot is sure of its last head, the
    second's shot was judged by the race (0.18 where 0.375 was due; an equally good shot marked
    a mistake): the game comes down to this shot and the evening shot after it."""
    match = planes_race_to_the_end(seed, True, 1, left)
    view = match.view(1)
    assume(planes_sure_to_end_next(view))
    size, n = view["size"], view["planes"]
    _, codes = rules_planes.layouts(size, n)
    assume(len(planes.consistent(size, n, view["shots"])) <= 120)  # the oracle loops in Python
    cells = rules_planes.legal_moves(match.state)
    asked = random.Random(seed).sample(cells, 6)
    a = planes.appraise(view, asked, Budget(600, now=frozen_clock()), 2)
    for cell, worth in zip(asked, a.scores):
        assert worth == pytest.approx(_evening_by_layouts(view, cell))
    assert a.value == pytest.approx(_evening_by_layouts(view, a.best))
    assert a.value >= max(a.scores) - 1e-9


def test_equal_turns_moves_a_tie_in_the_race():
    """The race gave a tie in shots still needed to the shooter with equal turns on or off;
    on, the first player's tie is a draw and the second draws one shot behind: the same shots
    are worth less to the first player and more to the second."""
    moved = {0: [], 1: []}
    for seed in range(12):
        match = midgame("planes", 30 + seed % 2, seed, {"equal_turns": True})
        seat = match.to_move()
        view = match.view(seat)
        on = planes.appraise(view, [], Budget(600, now=frozen_clock()), 2).value
        off = planes.appraise({**view, "equal_turns": False}, [],
                              Budget(600, now=frozen_clock()), 2).value
        moved[seat].append(on - off)
    assert moved[0] and moved[1]
    assert all(d < 0 for d in moved[0]) and all(d > 0 for d in moved[1])


def test_a_drop_is_classed_as_the_file_keeps_it():
    """A drop of 0.04996 was kept rounded to 0.05, the inaccuracy limit, with the class "ok"
    it had unrounded: the file said a move lost as much as an inaccuracy and was none."""
    from ai.base import Appraisal
    limits = thresholds("ataxx")
    job = Review(Match("ataxx", None, 1))
    at = limits["inaccuracy"]
    for drop in (at - 4e-5, at - 6e-5, at + 4e-5):
        e = job.entry(0, 0, "b6", Appraisal(0.6, (0.6 - drop,), "b6"))
        assert e["class"] == classify(e["drop"], limits), (drop, e)


def test_a_reviews_first_position_gets_its_whole_time_however_long_the_kernels_take_to_load(
        monkeypatch):
    """A review runs in a new process, where loading the compiled search ate the first
    position's time: Dots' first move was never judged exactly (helper-37, a 1x1 game: move 1
    read "as good as the best move", the others "=" exact). Here the load takes 5 s of a clock
    that moves only then."""
    from ai import dots_solver
    from tests.fakes.wire import Clock

    clock, real = Clock(), dots_solver.KERNEL.load
    loads: list[float] = []

    def slow_first_load():
        if not loads:
            clock.t += 5.0
        loads.append(clock.t)
        return real()

    monkeypatch.setattr(dots_solver.KERNEL, "load", slow_first_load)
    match = Match("dots", {"rows": 1, "cols": 1})
    for line in (1, 2, 0, 3):
        match.play(line)
    job = Review(match, Settings(seconds=0.12), now=clock)
    for _ in job.run():
        pass
    assert loads and job.result is not None
    assert [ply["exact"] for ply in job.result["plies"]] == [True] * 4


@settings(max_examples=12, deadline=None, phases=[Phase.generate])
@given(seed=st.integers(0, 10**6), plies=st.integers(2, 40))
def test_a_planes_review_judges_both_hunts_by_the_same_measure(seed, plies):
    """The race is the same race from either seat: what the shooter reckons the opponent still
    needs is what the opponent, shooting next, reckons for itself (a cheaper measure for the
    opponent's hunt favoured whoever was to move, and the graph of a game swung every shot)."""
    rng = random.Random(seed)
    match = Match("planes", None, seed)
    while match.setup_pending():
        match.play(decide_setup("planes", match.view(match.to_move()), "random",
                                Budget(0.0, now=frozen_clock()), rng))
    while not match.over and len(match.moves) < plies:
        match.play(rng.choice(match.legal_moves()))
    if match.over:
        return
    mover = match.to_move()
    views = [match.view(mover), match.view(1 - mover)]
    judged = [planes.appraise(v, [], Budget(600, now=frozen_clock()), 2) for v in views]
    assert judged[0].figures["theirs"] == pytest.approx(judged[1].figures["shots"])
    assert judged[1].figures["theirs"] == pytest.approx(judged[0].figures["shots"])


def _planes_near_the_end(seed: int, equal_turns: bool, spared: int, second: bool) -> Match:
    """A planes game where the side to move has shot every cell of the other grid's planes but
    one head (so it knows where that head is), the other side having shot as often at the
    first's grid, finding every head but `spared` of them; `second`: seat 1 is to move."""
    rng = random.Random(seed)
    match = Match("planes", {"equal_turns": equal_turns}, seed)
    while match.setup_pending():
        match.play(decide_setup("planes", match.view(match.to_move()), "random",
                                Budget(0.0, now=frozen_clock()), rng))
    size, state = match.options["size"], match.state
    cells = [rules_planes.layout_cells(size, state.layouts[s]) for s in range(2)]
    shooter = 1 if second else 0
    aims = list(cells[1 - shooter])
    last = rng.choice([c for c in aims if cells[1 - shooter][c] == "head"])
    aims.remove(last)
    rng.shuffle(aims)
    heads = [c for c, a in cells[shooter].items() if a == "head"]
    spare = set(rng.sample(heads, spared))
    found = [c for c in heads if c not in spare]
    others = [c for c in range(size * size) if c not in heads]
    theirs = found + rng.sample(others, len(aims) + second - len(found))
    rng.shuffle(theirs)
    lists = {shooter: aims, 1 - shooter: theirs}
    while match.to_move() != shooter or lists[shooter]:
        match.play(lists[match.to_move()].pop())
    assert not match.over and match.to_move() == shooter
    return match


@settings(max_examples=16, deadline=None, phases=[Phase.generate])
@given(seed=st.integers(0, 10**6), equal_turns=st.booleans(), spared=st.integers(1, 2),
       second=st.booleans())
def test_a_planes_shot_sure_of_the_last_head_is_worth_what_the_rules_make_it(
        seed, equal_turns, spared, second):
    """The review showed 98% for a shot certain to find the last head (the race's logistic):
    it ends the game, a win; under "equal turns" the first player's leaves the second its
    evening shot, a sure draw if that is sure of the second's last head, a win if the second
    has two heads left."""
    match = _planes_near_the_end(seed, equal_turns, spared, second)
    view = match.view(match.to_move())
    cells = rules_planes.legal_moves(match.state)
    a = planes.appraise(view, cells, Budget(600, now=frozen_clock()), 2)
    sure = [c for c, d in zip(cells, a.details) if d["head"] == 1.0]
    assert len(sure) == 1  # every other cell of the planes has been shot
    worth = a.scores[cells.index(sure[0])]
    assert a.value == worth and a.best == sure[0]
    if not equal_turns or second or spared == 2:
        assert worth == 1.0
    else:  # the second may even the count with its last shot
        theirs = planes.appraise(match.view(1), [], Budget(600, now=frozen_clock()), 2)
        evening = theirs.figures["best"]["head"]
        assert worth == pytest.approx(1.0 - 0.5 * evening) and 0.5 <= worth < 1.0
    assert all(v < worth for c, v in zip(cells, a.scores) if c != sure[0])
