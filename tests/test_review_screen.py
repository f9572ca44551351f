"""The review screen (issue 32): opened from the result card and from a replay, the analysis on
its worker (progress, cancel), the graph, the marked moves, Try again, a stored review reused.

The analysis is a scripted stand-in for Hard (ScriptedReview: ai.review.Review with its
`appraise` replaced), so the tests are quick and know where the marks fall; the engine itself
is tested in tests/test_review.py."""

from __future__ import annotations

import random
import threading

import pygame
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from ai.base import Appraisal, Budget, Deadline, decide_setup
from ai.review import QUICK, Review, classify
from client.scenes import review as review_scene
from client.scenes.dialog import ConfirmScene
from client.scenes.play import PlayScene
from client.scenes.replays import ReplayPlayerScene
from client.scenes.review import ReviewScene
from client.ui import theme
from game import registry, replay
from game.i18n import DEFAULT_NAMES
from game.match import Match, Seat
from tests.fakes.cancel import frozen_clock
from tests.harness import Harness

BLUNDERS = (3, 6)  # the plies the scripted review marks as blunders
GAME = "jungle"  # two players, nothing hidden, no setup: every ply is judged


class ScriptedReview(Review):
    """Review with a scripted judgement: every position worth a little over half, the moves
    at BLUNDERS losing 0.4 of it and the others 0.02 unless they are the best, the best move
    the last legal one. With a gate, each position
    waits for the test to let it through."""

    gate: threading.Semaphore | None = None
    built = 0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        type(self).built += 1
        self.finished = threading.Event()

    def run(self):
        try:
            yield from super().run()
        finally:
            self.finished.set()

    def appraise(self, state, moves, share=1.0):
        if self.gate is not None:
            self.gate.acquire()
        if self.cancelled.is_set():
            raise Deadline()
        seat = self.rules.to_move(state)
        legal = self.rules.legal_moves(state)
        best = self.rules.move_to_wire(legal[-1])
        ply = next((i for i, s in enumerate(self.match.states) if s is state), 0)
        value = 0.6
        after = value - (0.4 if ply in BLUNDERS else 0.02)  # 0.02: below any mark, still shown
        scores = tuple(value if m == best and ply not in BLUNDERS else after for m in moves)
        return seat, Appraisal(value, scores, best, (best,), ply == 1)

    def settled(self, entry, better):
        """The scripted values stand: settling them on the next position's (every position
        worth the same here) would leave no mark for the screen to show."""
        return {}


class Refusing(Review):
    """A review that must not run (a stored one should have been used)."""

    def __init__(self, *args, **kwargs):
        raise AssertionError("the review ran again")


@pytest.fixture(autouse=True)
def scripted(monkeypatch):
    ScriptedReview.gate, ScriptedReview.built = None, 0
    monkeypatch.setattr(review_scene, "REVIEWER", ScriptedReview)
    yield
    if ScriptedReview.gate is not None:  # let a worker still waiting go
        for _ in range(1000):
            ScriptedReview.gate.release()


def played(plies: int = 16, seats: list[Seat] | None = None, seed: int = 3) -> Match:
    """A jungle match with random legal moves (kept short: the review runs once a ply)."""
    match = Match(GAME, None, seed, seats or [Seat("human", "You"), Seat("ai", "Bot", "hard")])
    rng = random.Random(seed)
    while len(match.moves) < plies and not match.over:
        match.play(match.rules.move_to_wire(rng.choice(match.legal_moves())))
    return match


def open_review(h, match: Match, **kwargs) -> ReviewScene:
    scene = h.app.push("review", match=match, **kwargs)
    h.frame()
    return scene


def finish(h, scene: ReviewScene) -> None:
    h.wait_until(lambda: scene.state == "done")


def scripted_review(match: Match) -> dict:
    """The scripted review of the match, as a finished run leaves it."""
    job = ScriptedReview(match, QUICK)
    for _step in job.run():
        pass
    assert job.result is not None
    return job.result


def open_replay(h) -> ReplayPlayerScene:
    """The newest replay opened from the replay browser, as a player does."""
    h.app.push("replays")
    h.wait_until(lambda: not h.top.loading)
    h.key(pygame.K_RETURN)
    h.wait_until(lambda: isinstance(h.top, ReplayPlayerScene))  # read off the loop
    return h.top


def test_opens_from_the_result_card(h):
    from client.scenes.base import start_match
    match = played(200)  # to its end
    assert match.over
    start_match(h.app, match)
    h.frame()
    h.app.push("result", play=h.top)
    h.settle()
    h.click_button("Review")
    scene = h.top
    assert isinstance(scene, ReviewScene) and scene.match is match
    finish(h, scene)
    assert len(scene.plies) == len(match.moves)
    assert [e["ply"] for e in scene.plies if e["class"] == "blunder"] == list(BLUNDERS)
    assert scene.ply == len(match.moves)  # opens on the final position


def test_opens_from_a_replay_without_a_review_and_keeps_it(h):
    match = played(12)
    path = replay.save_replay(match, 10.0)
    _m, body = replay.load_replay(path)
    assert replay.stored_review(body) is None  # an older replay: no review in it
    player = open_replay(h)
    player.seek(5)
    h.click_button("Review")
    scene = h.top
    assert isinstance(scene, ReviewScene) and scene.ply == 5
    finish(h, scene)
    assert not scene.stored
    _m, body = replay.load_replay(path)
    kept = replay.stored_review(body)
    assert kept is not None and kept["plies"] == scene.doc["plies"]


def test_back_from_a_review_the_replay_shows_the_move_the_review_was_left_at(h):
    """helper-37: the review left at 2/4, Back reopened the replay at 3/4, where it had been."""
    match = played(12)
    replay.save_replay(match, 10.0)
    player = open_replay(h)
    player.seek(5)
    h.click_button("Review")
    scene = h.top
    finish(h, scene)
    h.key(pygame.K_LEFT)
    h.key(pygame.K_LEFT)
    assert scene.ply == 3
    h.click_button("Back")
    assert h.top is player and player.ply == 3
    h.key(pygame.K_RIGHT)  # and it steps on from there
    assert player.ply == 4


def _marks_drawn(h, monkeypatch, player) -> list[str]:
    """The marks the replay's move list draws (every move row shown, the list at its start)."""
    drawn: list[str] = []
    real = theme.text
    monkeypatch.setattr(theme, "text",
                        lambda s, text, *a, **k: (drawn.append(text), real(s, text, *a, **k))[1])
    player._draw_moves(h.app.screen)
    monkeypatch.setattr(theme, "text", real)
    return [t for t in drawn if t in theme.MOVE_MARKS.values()]


def test_a_replay_marks_its_moves_as_the_review_kept_with_it_classed_them(h, monkeypatch):
    """helper-37: "analysis done, kept in the replay", and the replay's move list showed none
    of its marks."""
    match = played(12)
    replay.store_review(replay.save_replay(match, 10.0), scripted_review(match))
    player = open_replay(h)
    h.frame()
    assert [i for i, c in enumerate(player.classes) if c == "blunder"] == list(BLUNDERS)
    assert _marks_drawn(h, monkeypatch, player) == ["??"] * len(BLUNDERS)


def test_a_review_run_from_a_replay_marks_its_moves_there_once_done(h, monkeypatch):
    match = played(12)
    replay.save_replay(match, 10.0)
    player = open_replay(h)
    h.frame()
    assert _marks_drawn(h, monkeypatch, player) == []
    h.click_button("Review")
    finish(h, h.top)
    h.click_button("Back")
    assert h.top is player
    h.frame()
    assert _marks_drawn(h, monkeypatch, player) == ["??"] * len(BLUNDERS)


def test_a_stored_review_opens_without_running_again(h, monkeypatch):
    match = played(12)
    path = replay.save_replay(match, 10.0)
    replay.store_review(path, scripted_review(match))
    monkeypatch.setattr(review_scene, "REVIEWER", Refusing)
    scene = open_review(h, match, path=path)
    finish(h, scene)  # a failure to read would leave it "failed", a run would raise
    assert scene.stored and scene.doc == replay.stored_review(replay.load_replay(path)[1])
    assert scene.marked() == [p + 1 for p in BLUNDERS]


def test_a_stored_review_is_found_for_a_match_without_its_path(h, monkeypatch):
    ScriptedReview.gate = threading.Semaphore(0)
    match = played(12)
    first = open_review(h, match)
    path = replay.save_replay(match, 10.0)  # written while the review runs
    ScriptedReview.gate.release(len(match.moves))
    finish(h, first)
    assert first.path == path  # found, and the review kept in it
    h.app.pop()
    monkeypatch.setattr(review_scene, "REVIEWER", Refusing)
    again = open_review(h, match)
    finish(h, again)
    assert again.stored


def test_while_the_analysis_runs_no_mark_stands_beyond_the_graphs_line(h):
    """helper-37: at 43% of a Deep analysis a blunder's dot stood in the graph's empty part,
    drawn on the value before the move at the position after it."""
    ScriptedReview.gate = threading.Semaphore(0)
    match = played(12)
    scene = open_review(h, match)
    h.wait_until(lambda: scene.job is not None)
    ScriptedReview.gate.release(BLUNDERS[0] + 1)  # up to the first blunder: its after unknown
    h.wait_until(lambda: scene.job.progress.done == BLUNDERS[0] + 1)
    h.frames(2)
    points = scene.points()
    end = max(i for i, v in enumerate(points) if v is not None)
    assert end == BLUNDERS[0]  # the line stops at the position before the blunder
    g, colour = scene.graph, theme.MARK_COLOURS["blunder"]
    beyond = [(x, y) for x in range(int(scene.x_of(end)) + 8, g.right - 2)
              for y in range(g.y + 2, g.bottom - 2)
              if tuple(h.app.screen.get_at((x, y)))[:3] == tuple(colour)[:3]]
    assert beyond == []
    ScriptedReview.gate.release(1)  # the next position judged: the mark comes, on the line
    h.wait_until(lambda: scene.job.progress.done == BLUNDERS[0] + 2)
    h.frames(2)
    assert [(cls, ply) for cls, ply, _v in scene.marks(scene.points(), 10.0)] == \
        [("blunder", BLUNDERS[0] + 1)]


def test_progress_advances_and_cancel_stops_the_worker(h):
    ScriptedReview.gate = threading.Semaphore(0)
    match = played(12)
    scene = open_review(h, match)
    h.wait_until(lambda: scene.job is not None)
    job = scene.job
    assert job.progress.done == 0 and scene.share() == 0.0
    ScriptedReview.gate.release(3)
    h.wait_until(lambda: job.progress.done == 3)
    h.frame()
    assert scene.state == "running"
    assert job.progress.total == 24  # 12 positions judged, then settled (nothing hidden)
    assert scene.share() == pytest.approx(3 / 24)
    assert "12%" in scene.status_text()  # of the whole, not "3/24" of a 12-move game
    scene.seek(2)  # the board is usable while it runs
    h.frame()
    assert scene.ply == 2 and scene.has_better  # move 2 was judged: its better move shown
    h.click_button("Cancel")
    assert scene.state == "cancelled"
    ScriptedReview.gate.release()  # the position it was judging ends, and sees the cancel
    assert job.finished.wait(10)
    h.frames(3)
    assert job.result is None and job.progress.done == 3
    assert scene.state == "cancelled" and scene.doc is None
    assert len(scene.plies) == 3  # what was judged stays shown


def test_clicking_the_graph_goes_to_that_position(h):
    match = played(16)
    scene = open_review(h, match, ply=0)
    finish(h, scene)
    h.frame()
    for ply in (7, 0, 16, 11):
        h.click((scene.x_of(ply), scene.graph.centery))
        assert scene.ply == ply
        assert scene.board.view == match.rules.view(match.states[ply], None)


def test_next_and_previous_mistake(h):
    match = played(16)
    scene = open_review(h, match, ply=0)
    finish(h, scene)
    marks = [p + 1 for p in BLUNDERS]
    h.click_button("Next mistake")
    assert scene.ply == marks[0]
    assert scene.entry(scene.ply - 1)["class"] == "blunder"
    h.click_button("Next mistake")
    assert scene.ply == marks[1]
    h.frame()
    assert not scene.next_button.enabled  # none after: the button is off, its key does nothing
    h.key(pygame.K_n)
    assert scene.ply == marks[1]
    h.click_button("Previous mistake")
    assert scene.ply == marks[0]
    # the better move is drawn beside the one played, with its name in the text
    assert scene.has_better and scene.better_board.last_move == scene.entry(marks[0] - 1)["best"]
    assert any(line.startswith("Better:") for line, _c in scene.judgement())


@pytest.mark.parametrize("choice, kinds", [("A bot", ("human", "ai")),
                                           ("Someone here", ("human", "human"))])
def test_try_again_from_here_starts_a_game_at_that_ply(h, choice, kinds):
    match = played(16)
    scene = open_review(h, match, ply=0)
    finish(h, scene)
    h.click_button("Next mistake")
    at = scene.ply
    h.click_button("Try again from here")
    h.click_button(choice)
    h.wait_until(lambda: isinstance(h.top, PlayScene))  # rebuilt off the loop
    play = h.top
    new = play.match
    assert new is not match and new.moves == match.moves[:at - 1]  # the marked move to play
    assert new.view(None) == match.rules.view(match.states[at - 1], None)
    mover = new.to_move()
    assert (new.seats[mover].kind, new.seats[1 - mover].kind) == kinds
    for old, seat in zip(match.seats, new.seats):  # a name the arcade gives is said in the
        assert seat.name == old.name or seat.name in DEFAULT_NAMES, seat.name  # language
    assert len(match.moves) == 16  # the reviewed game is untouched


def test_deep_reviews_again_and_either_depth_is_kept(h, monkeypatch):
    from ai.review import DEEP
    match = played(12)
    path = replay.save_replay(match, 10.0)
    scene = open_review(h, match, path=path)
    finish(h, scene)
    assert scene.doc["settings"] == QUICK.to_dict() and ScriptedReview.built == 1
    h.frame()
    h.click(scene.depth.chips[1].center)  # Deep
    assert scene.depth.value == "deep"
    finish(h, scene)
    assert scene.doc["settings"] == DEEP.to_dict() and ScriptedReview.built == 2
    h.app.pop()
    monkeypatch.setattr(review_scene, "REVIEWER", Refusing)
    again = open_review(h, match, path=path)  # the deep one kept: opened at its depth
    finish(h, again)
    assert again.stored and again.depth.value == "deep"


class ScriptedOdds(ScriptedReview):
    """The scripted judgement with a shot's chances, as planes gives them."""

    def appraise(self, state, moves, share=1.0):
        seat, a = super().appraise(state, moves, share)
        details = tuple({"head": 0.31, "hit": 0.5} for _m in moves)
        return seat, Appraisal(a.value, a.scores, a.best, a.line, False, details,
                               {"best": {"head": 0.44, "hit": 0.6}})


def test_a_hidden_game_says_the_chances_and_the_truth(h, monkeypatch):
    from ai.base import Budget
    monkeypatch.setattr(review_scene, "REVIEWER", ScriptedOdds)
    match = Match("planes", None, 5, [Seat("human", "You"), Seat("ai", "Bot", "hard")])
    rng, bot = random.Random(5), match.info.ai_module()
    while len(match.moves) < 14:
        if match.setup_pending():
            match.play(bot.choose_setup(match.view(match.to_move()),
                                        Budget(1.0, now=frozen_clock()), "easy", rng))
        else:
            match.play(match.rules.move_to_wire(rng.choice(match.legal_moves())))
    assert match.rules.HIDDEN
    scene = open_review(h, match, ply=0)
    finish(h, scene)
    assert [e["kind"] for e in scene.plies[:2]] == ["setup", "setup"]
    h.click_button("Next mistake")
    e = scene.entry(scene.ply - 1)
    assert e["class"] == "blunder" and "truth" in e
    words = " ".join(line for line, _c in scene.judgement())
    assert "31%" in words and "44%" in words and "With what it turned up: expected result" in words
    scene.seek(1)
    assert any("not judged" in line for line, _c in scene.judgement())


def hidden_match(plies: int, options: dict | None = None) -> Match:
    """A planes match (or a fog Banqi one) some shots in, random shots after the layouts."""
    game = "planes" if options is None else "banqi"
    match = Match(game, options, 5, [Seat("human", "You"), Seat("ai", "Bot", "hard")])
    rng, bot = random.Random(5), match.info.ai_module()
    while len(match.moves) < plies and not match.over:
        if match.setup_pending():
            match.play(bot.choose_setup(match.view(match.to_move()),
                                        Budget(1.0, now=frozen_clock()), "easy", rng))
        else:
            match.play(match.rules.move_to_wire(rng.choice(match.legal_moves())))
    return match


def graph_strokes(h, scene: ReviewScene, monkeypatch) -> list[tuple[tuple, list]]:
    """The polylines the graph is drawn with: (colour, points)."""
    strokes: list = []
    real = pygame.draw.lines
    monkeypatch.setattr(pygame.draw, "lines", lambda s, colour, closed, points, width=1:
                        (strokes.append((tuple(colour)[:3], list(points))),
                         real(s, colour, closed, points, width))[1])
    h.frame()
    return [(c, pts) for c, pts in strokes
            if all(scene.graph.collidepoint(int(x), int(y)) for x, y in pts)]


@pytest.mark.parametrize("options", [None, {"fog": True}])
def test_where_the_sides_see_apart_each_has_its_own_line_on_the_graph(h, monkeypatch,
                                                                      options):
    """A planes review's graph joined the two sides' judgements, each from what that side
    could see, into one line that see-sawed at every ply (100%, 0%, 100%...). Each side's
    own judgement is now a line of its own in its ink, its marks on it."""
    monkeypatch.setattr(review_scene, "REVIEWER", ScriptedReview)
    match = hidden_match(16, options)
    scene = open_review(h, match, ply=0)
    finish(h, scene)
    assert scene.apart()
    strokes = graph_strokes(h, scene, monkeypatch)
    assert theme.INK not in [c for c, _p in strokes]  # no line joining the two sides
    assert sorted(c for c, _p in strokes) == sorted(scene.seat_ink(s) for s in (0, 1))
    for colour, pts in strokes:
        seat = [scene.seat_ink(s) for s in (0, 1)].index(colour)
        mine = {e["ply"] for e in scene.plies if e["kind"] == "move" and e["seat"] == seat}
        assert [scene.ply_at(round(x)) for x, _y in pts] == sorted(mine)
        assert len({round(y) for _x, y in pts}) == 1  # the scripted 60%, for that side alone
    lines = {s: dict(line) for s, line in enumerate(scene.seat_lines())}
    for cls, ply, v in scene.marks(scene.points(), 10.0):
        mover = scene.entry(ply)["seat"]
        assert cls != "ok" and v == pytest.approx(lines[mover][ply])


def test_where_the_sides_see_alike_the_graph_is_one_line(h, monkeypatch):
    monkeypatch.setattr(review_scene, "REVIEWER", ScriptedReview)
    match = hidden_match(16, {"fog": False})  # Banqi's face-down pieces hide alike
    scene = open_review(h, match, ply=0)
    finish(h, scene)
    assert not scene.apart()
    assert [c for c, _p in graph_strokes(h, scene, monkeypatch)] == [theme.INK]


def test_2048_says_where_the_board_was_lost(h):
    match = Match("g2048", None, 4, [Seat("human", "You")])
    rng = random.Random(4)
    while len(match.moves) < 10 and not match.over:
        match.play(match.rules.move_to_wire(rng.choice(match.legal_moves())))
    scene = open_review(h, match, ply=0)
    finish(h, scene)
    assert scene.lost_at() == BLUNDERS[0]  # the first move that halved its expected result
    assert any("lost at move 4" in line for line, _c in scene.judgement())
    h.click_button("Next mistake")
    assert scene.ply == BLUNDERS[0] + 1
    lost = [line for line, _c in scene.judgement() if line.startswith("Here the board was lost")]
    assert lost and "fell from 60% to 20%" in lost[0], lost  # what fell, not "by half" always
    h.click_button("Try again from here")  # one player: no one to ask who plays
    h.wait_until(lambda: isinstance(h.top, PlayScene))  # rebuilt off the loop
    assert h.top.match.moves == match.moves[:BLUNDERS[0]]


def any_game(game: str, plies: int) -> Match:
    """A game of any kind, You against Hard where it has two players (Banqi in the open), with
    up to `plies` random moves (a setup the random bot's)."""
    players = registry.get(game).players
    match = Match(game, {"fog": False} if game == "banqi" else None, 3,
                  [Seat("human", "You"), Seat("ai", "Bot", "hard")][:players])
    rng = random.Random(3)
    while len(match.moves) < plies and not match.over:
        if match.setup_pending():
            match.play(decide_setup(game, match.view(match.to_move()), "random",
                                    Budget(0.0, now=frozen_clock()), rng))
        else:
            match.play(match.rules.move_to_wire(rng.choice(match.legal_moves())))
    return match


def _drawn(board, size: tuple[int, int]) -> pygame.Rect:
    """Where a board's drawing falls: its pixels alone, on a clear layer."""
    layer = pygame.Surface(size, pygame.SRCALPHA)
    board.draw(layer)
    return layer.get_bounding_rect()


@pytest.mark.parametrize("size", [(800, 560), (1280, 800), (1920, 1080)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", registry.available())
def test_the_words_over_the_boards_cover_no_board_and_the_boards_keep_to_their_room(game, size):
    """At a mistake, with the better move shown beside the one played (or on a tab over one
    board): each board draws inside its own rect, clear of the graph, and no caption or tab
    lies over a board's drawing (Jungle's board used to keep a cell it had no room for, and its
    file letters and top edge ran under the tabs at the smallest window)."""
    players = registry.get(game).players
    match = any_game(game, 12)
    h = Harness(size)
    try:
        scene = open_review(h, match, ply=0)
        finish(h, scene)
        scene.seek(next((e["ply"] + 1 for e in scene.plies if e.get("class") == "blunder"), 4))
        h.frame()
        assert scene.captions and (scene.has_better or players == 1)
        boards = [scene.board, scene.better_board] if scene.split else [scene.board]
        for board in boards:
            drawn = _drawn(board, size)
            assert board.rect.inflate(6, 6).contains(drawn), (board.rect, drawn)
            assert drawn.bottom <= scene.graph.top, (drawn, scene.graph)
            assert not any(drawn.colliderect(c) for c in scene.captions), (drawn, scene.captions)
    finally:
        h.close()


class ScriptedTruth(ScriptedReview):
    """The scripted judgement with the chances a move had, as each kind of game gives them
    (the longest words the review says: the chances and the truth after them)."""

    def appraise(self, state, moves, share=1.0):
        seat, a = super().appraise(state, moves, share)
        key = {"planes": "head", "foxhunt": "fox"}.get(self.match.info.id, "expectimax")
        return seat, Appraisal(a.value, a.scores, a.best, a.line, False,
                               tuple({key: 0.02} for _m in moves), {"best": {key: 0.31}})


def _characters(lines) -> str:
    return "".join("".join(line.split()) for line in lines).replace("…", "")


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("size", [(800, 560), (1280, 800)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", registry.available())
def test_what_is_said_of_a_move_is_drawn_whole_inside_its_box(game, size, lang, monkeypatch):
    """Under the graph, every word said of the move shown is drawn, each line inside the text
    box (at 800x560 in English, Fox Hunt's last sentence, the truth after the probe, was cut
    off after two words)."""
    from game import i18n
    monkeypatch.setattr(review_scene, "REVIEWER", ScriptedTruth)
    match = any_game(game, 12)
    i18n.set_language(lang)
    h = Harness(size)
    try:
        scene = open_review(h, match, ply=0)
        finish(h, scene)
        for ply in range(len(match.moves) + 1):
            scene.seek(ply)
            h.frame()
            said = [line for line, _c in scene.judgement()]
            box, size_drawn = scene.text_box, scene.said_size
            assert _characters(part for _i, part in scene.said) == _characters(said), ply
            assert len(scene.said) * (size_drawn + 4) <= box.height
            assert all(pygame.font.Font.size(review_scene.theme.font(size_drawn), part)[0]
                       <= box.width - 8 for _i, part in scene.said)
    finally:
        h.close()
        i18n.set_language("en")


@pytest.mark.parametrize("game", registry.available())
def test_the_words_on_the_graph_are_not_crossed_by_it(game):
    """Each word on the graph (whose side is which, what it measures, where the board was
    lost) lies on a plain slip: the curve, the marks and the cursor pass under it, not through
    it (through a translucent slip they crossed "Bot (second)" and "win chance")."""
    from client.ui import theme
    match = any_game(game, 40)
    h = Harness((800, 560))
    try:
        scene = open_review(h, match, ply=0)
        finish(h, scene)
        for ply in (0, 1, len(match.moves) // 2, len(match.moves)):
            scene.seek(ply)
            h.frame()
            screen = pygame.display.get_surface()
            assert scene.graph_labels
            for box, img in scene.graph_labels:
                alone = pygame.Surface(box.size)
                alone.fill(theme.PANEL)
                alone.blit(img, (0, 0))
                drawn = screen.subsurface(box)
                assert all(drawn.get_at((x, y)) == alone.get_at((x, y))
                           for x in range(box.width) for y in range(box.height)), (ply, box)
    finally:
        h.close()


def test_the_reviews_state_is_drawn_whole_or_visibly_cut(h):
    """Over the move list, the review's state (e.g. "Review done and kept with the replay") is
    drawn whole at the smallest window, smaller if it must be; it used to show its first
    wrapped line alone ("… kept with the")."""
    h.close()
    small = Harness((800, 560))
    try:
        scene = open_review(small, played(8))
        finish(small, scene)
        small.frame()
        said, whole = scene.status_said, scene.status_text()
        assert said == whole or (said.endswith("…") and whole.startswith(said[:-1]))
        assert said == whole  # in English at 800x560 it fits once made smaller
    finally:
        small.close()


def test_the_graph_draws_each_side_in_the_ink_it_played(monkeypatch):
    """A Banqi seat's colour comes with the first flip: where the first seat turned up a black
    piece, the graph's word and area for it are black's, as on the board and the result card
    (they were red by seat number), at every move shown."""
    from client.boards.banqi import BLACK, RED
    from client.ui import theme
    from game.i18n import seat_title
    for seed in range(40):
        match = Match("banqi", {"fog": False}, seed,
                      [Seat("human", "You"), Seat("ai", "Bot", "hard")])
        match.play(match.legal_moves()[0])
        if match.states[-1].colors[0] == "black":
            break
    rng = random.Random(5)
    while len(match.moves) < 12 and not match.over:
        match.play(rng.choice(match.legal_moves()))
    drawn: list = []
    monkeypatch.setattr(ReviewScene, "_label", lambda self, s, words, where, colour:
                        drawn.append((words, colour)))
    polygons: list = []
    real = pygame.draw.polygon
    monkeypatch.setattr(pygame.draw, "polygon", lambda s, colour, *a, **k:
                        (polygons.append(tuple(colour)[:3]), real(s, colour, *a, **k))[1])
    h = Harness((800, 560))
    try:
        scene = open_review(h, match, ply=0)
        finish(h, scene)
        for ply in (0, len(match.moves)):
            scene.seek(ply)
            drawn.clear()
            polygons.clear()
            h.frame()
            colours = dict(drawn)
            assert colours[seat_title(match, 0)] == BLACK and colours[seat_title(match, 1)] == RED
            assert theme.light(BLACK) in polygons and theme.light(RED) in polygons
    finally:
        h.close()


class ScriptedFlips(ScriptedReview):
    """The scripted judgement, its best move a flip of a face-down square where one is legal."""

    def appraise(self, state, moves, share=1.0):
        seat, a = super().appraise(state, moves, share)
        flips = [m for m in self.rules.legal_moves(state) if self.rules.opens_deal(state, m)]
        best = flips[-1] if flips else a.best
        scores = tuple(a.value if m == best else min(s, a.value - 0.02)
                       for m, s in zip(moves, a.scores))
        return seat, Appraisal(a.value, scores, best, (best,), a.exact)


def _stand_in(match: Match, seed: int) -> Match:
    """The same game as a LAN side records it: its own deal, each flip's piece disclosed into
    it, so the squares never opened hold pieces of that side's own seed."""
    from net.secrets.banqi import disclose
    other = Match("banqi", match.options, seed, match.seats)
    for move, after in zip(match.moves, match.states[1:]):
        sq = match.rules.parse_square(move) if len(move) == 2 else None
        if sq is not None and other.state.board[sq] == "?":
            disclose(other, move, after.board[sq])
        other.play(move)
    return other


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck),
          phases=[Phase.explicit, Phase.reuse, Phase.generate])  # a shrink reviews for minutes
@given(seed=st.integers(0, 10**6), fog=st.booleans(), plies=st.integers(2, 24))
def test_a_better_flip_shows_no_piece_the_game_never_turned_up(seed, fog, plies, monkeypatch):
    """A better move that would flip a square never opened is shown unopened: its board is the
    position before it, its line stops at it and names no piece, and no truth is claimed for it.
    Two records of one game that differ only under the squares never opened (the two LAN
    sides' stand-in deals) show the same at every move (they showed 将 on one side, 象 on the
    other)."""
    monkeypatch.setattr(review_scene, "REVIEWER", ScriptedFlips)
    rng = random.Random(seed)
    match = Match("banqi", {"fog": fog}, seed, [Seat("human", "You"), Seat("ai", "Bot", "hard")])
    while len(match.moves) < plies and not match.over:
        match.play(rng.choice(match.legal_moves()))
    shown = []
    for record in (match, _stand_in(match, seed + 1)):
        h = Harness((800, 560))
        try:
            scene = open_review(h, record, ply=0)
            finish(h, scene)
            seen = []
            for ply in range(1, len(record.moves) + 1):
                scene.seek(ply)
                e, before = scene.entry(ply - 1), record.states[ply - 1]
                if record.rules.opens_deal(before, e["best"]) and e["best"] != e["move"]:
                    assert scene.has_better
                    unopened = record.rules.view(before, None)["board"]
                    assert scene.better_board.view["board"] == unopened
                    # the square and no piece: said as a flip ("f2 ?" read as a placeholder)
                    assert scene.better_text == "flip " + e["best"]
                    square = record.rules.parse_square(e["best"])
                    assert scene.better_board._last_squares() == {square}  # marked, not the
                    # move before it (the view's own last move)
                    assert e["truth"]["best_after"] is None
                board = scene.has_better and scene.better_board.view["board"]
                seen.append((scene.better_text, board, [line for line, _c in scene.judgement()]))
            shown.append(seen)
        finally:
            h.close()
    assert shown[0] == shown[1]


class ScriptedEquals(ScriptedReview):
    """The scripted judgement, every move played worth exactly what the best is."""

    def appraise(self, state, moves, share=1.0):
        seat, a = super().appraise(state, moves, share)
        return seat, Appraisal(a.value, (a.value,) * len(moves), a.best, a.line, a.exact)


def moves_not_the_best(h, monkeypatch, reviewer: type) -> list[tuple[ReviewScene, dict, list]]:
    """Each judged move other than the best, as the review screen shows it after `reviewer`
    ran: the scene, the entry and the judgement's words."""
    monkeypatch.setattr(review_scene, "REVIEWER", reviewer)
    match = played(12)
    scene = open_review(h, match, ply=0)
    finish(h, scene)
    out = []
    for p in range(1, len(match.moves) + 1):
        e = scene.entry(p - 1)
        if e["best"] != e["move"]:
            scene.seek(p)
            h.frame()
            out.append((scene, e, [line for line, _c in scene.judgement()]))
    assert out
    return out


def test_a_move_worth_what_the_best_is_gets_no_better_move(h, monkeypatch):
    """A move played other than the best but worth the same (both values read alike) is as
    good as the best: no "Better" line and no second board (it said "A good move", 60% and
    60%, and then "Better: ..." beside it)."""
    for scene, _e, words in moves_not_the_best(h, monkeypatch, ScriptedEquals):
        assert not scene.has_better and not scene.better_text
        assert "As good as the best move" in words[0] and not any("Better" in w for w in words)


class ScriptedDecided(ScriptedReview):
    """The scripted judgement of a decided game: every move worth the best's win chance, the
    moves not the best giving up a third of the game's points."""

    def appraise(self, state, moves, share=1.0):
        seat, a = super().appraise(state, moves, share)
        gave = tuple(0.0 if self.rules.move_to_wire(m) == a.best else 1 / 3 for m in moves)
        return seat, Appraisal(a.value, (a.value,) * len(moves), a.best, a.line, True,
                               given=gave)


def test_a_decided_games_move_that_gives_points_away_is_marked_with_its_better_move(
        h, monkeypatch):
    """In a decided game the win chances read alike: a move marked for the points it gave up
    is no "As good as the best move", and its better move is shown beside it."""
    for scene, e, words in moves_not_the_best(h, monkeypatch, ScriptedDecided):
        assert e["class"] == classify(1 / 3, scene.doc["thresholds"]) != "ok"
        assert scene.has_better and scene.better_text
        assert "As good as the best move" not in words[0]
        assert any(w.startswith("Better: ") for w in words)


def test_a_count_of_probes_is_said_whole_and_an_expectation_with_its_tenth(h, monkeypatch):
    """Fox Hunt's review said "Exactly 26.0 probes" of a hunt that took 26."""
    monkeypatch.setattr(ReviewScene, "unit", property(lambda self: "probes"))
    scene = open_review(h, Match("foxhunt", None, 4, [Seat("human", "You")]))
    assert scene.value_text(26.0) == "26 probes"
    assert scene.value_text(15.5) == "15.5 probes"
    assert scene.value_text(1234.0) == "1,234 probes"


def test_the_question_who_plays_the_other_side_can_be_put_away(h):
    """Both answers start a game, so Esc (and Cancel) must start none: it stays in the review."""
    match = played(16)
    scene = open_review(h, match, ply=0)
    finish(h, scene)
    h.click_button("Next mistake")
    for leave in (lambda: h.key(pygame.K_ESCAPE), lambda: h.click_button("Cancel")):
        h.click_button("Try again from here")
        assert isinstance(h.top, ConfirmScene)
        leave()
        h.frame()
        assert h.top is scene and not any(isinstance(s, PlayScene) for s in h.app.stack)


def test_a_mistake_button_is_live_only_with_a_mistake_to_go_to(h):
    match = played(16)
    scene = open_review(h, match, ply=0)
    finish(h, scene)
    marks = scene.marked()
    assert marks
    for ply in (0, marks[0], len(match.moves)):
        scene.seek(ply)
        h.frame()
        assert scene.previous_button.enabled == any(p < ply for p in marks)
        assert scene.next_button.enabled == any(p > ply for p in marks)
    scene.seek(len(match.moves))
    h.frame()
    assert not scene.next_button.enabled


@pytest.mark.parametrize("how", ["resign", "rules"])
def test_the_graph_ends_where_the_last_move_left_it_unless_the_rules_ended_the_game(h, how):
    """After a resignation the line dived to the result, so a last move judged good sat at the
    bottom, against what the words said of it. A game the rules ended is worth its result; one
    resigned ends at its last position's worth, and the words say how it ended after it."""
    match = played(200 if how == "rules" else 9)
    if how == "resign":
        match.resign(0)
    assert match.over and (match.rules.outcome(match.states[-1]) is not None) == (how == "rules")
    scene = open_review(h, match)
    finish(h, scene)
    last = scene.plies[-1]
    after = 1.0 - last["after"] if last["seat"] == 1 else last["after"]
    out = match.outcome()
    result = 0.5 if out.winner is None else float(out.winner == 0)
    assert scene.points()[-1] == pytest.approx(result if how == "rules" else after)
    scene.seek(len(match.moves))
    said = [words for words, _colour in scene.judgement()]
    assert any("resigned" in words for words in said) == (how == "resign")


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_trying_again_from_the_bots_move_plays_that_bot_at_its_level(h, level):
    """Tried again from a move of the bot's, the player took its side and faced a Hard bot in
    their own seat, whatever the game was played against, and was named "You" there: it is the
    reviewed game's bot, and the player keeps their name."""
    match = played(9, seats=[Seat("human", "Bob"), Seat("ai", "Bot", level)])
    scene = open_review(h, match)
    finish(h, scene)
    for ply in (2, 3):  # a move of the bot's, then one of the player's
        scene.seek(ply)
        mover = match.rules.to_move(match.states[ply - 1])
        scene._start_from(ply - 1, bot=True)
        h.wait_until(lambda: isinstance(h.top, PlayScene))  # rebuilt off the loop
        new = h.top.match
        assert new.seats[mover].kind == "human" and new.seats[mover].name == "Bob"
        assert new.seats[1 - mover].kind == "ai" and new.seats[1 - mover].level == level
        h.app.pop_to("review")


def test_a_better_move_goes_while_the_move_is_judged_again(h):
    """Deep pressed on a marked move: the text said "Not judged yet" while the Quick review's
    better board stayed beside it, until the new judgement came."""
    match = played(12)
    scene = open_review(h, match, ply=0)
    finish(h, scene)
    scene.next_mistake()
    h.frame()
    assert scene.has_better
    ScriptedReview.gate = threading.Semaphore(0)
    scene.start(fresh=True)
    h.wait_until(lambda: scene.job is not None)
    h.frame()
    assert scene.state == "running" and not scene.has_better
    assert "Not judged yet." in [words for words, _colour in scene.judgement()]
    ScriptedReview.gate.release(100)
    finish(h, scene)
    h.frame()
    assert scene.has_better  # judged again: it is back


@pytest.mark.parametrize("field, value", [
    ("class", "weird"), ("class", ["x"]), ("class", {"a": 1}), ("class", 7),
    ("seat", 5), ("seat", "0"), ("before", "0.5"), ("after", None), ("drop", float("nan")),
    ("ply", 0), ("kind", ["move"]), ("exact", "yes"), ("line", 3), ("truth", [1]),
    ("truth", {"after": "x"}), ("given", "0.2"), ("given", None), ("given", float("inf")),
])
def test_a_crafted_stored_review_is_not_shown_and_crashes_nothing(h, monkeypatch, field, value):
    """A review read back from a crafted replay crashed the review screen on its move list
    ("class": "weird" a KeyError, a list a TypeError). One a review would not have written is
    analysed again, and the replay marks none of its moves."""
    match = played(12)
    path = replay.save_replay(match, 10.0)
    doc = scripted_review(match)
    doc["plies"][BLUNDERS[0]][field] = value
    replay.store_review(path, doc)
    scene = open_review(h, match, path=path)
    finish(h, scene)
    scene.seek(BLUNDERS[0] + 1)
    h.frames(2)
    assert not scene.stored  # made again, and kept in place of the crafted one
    h.app.pop()
    h.app.push("replay", match=match, path=path, review=doc)
    h.frames(2)
    assert h.top.classes == []


@pytest.mark.parametrize("entry", [
    {"details": {"boxes": 5}, "figures": {"best": {"boxes": [1, 2]}}},
    {"details": {"boxes": [1, 2]}, "figures": {"best": 7}},
    {"details": {"head": "x"}, "figures": []},
    {"details": {"fox": 1e300}, "figures": {"best": {"fox": None}}},
    {"details": {"expectimax": True}},
    {"details": ["head"], "figures": "best"},
])
def test_a_crafted_stored_reviews_figures_are_not_said_and_crash_nothing(entry):
    """A review comes back from the replay file, which may be crafted: "boxes": 5 or a "best"
    that is no mapping crashed the review screen on the move shown. Figures that are not what
    the review writes are left unsaid."""
    assert ReviewScene.truth_text(object.__new__(ReviewScene), entry) == ""


def test_while_a_review_runs_a_drop_the_values_do_not_show_tells_no_direction():
    """Before the review's end says which way is better, the first move with a drop told it:
    a decided game's move, marked for the points it gave up with its values equal, said
    "less is better" (its before not above its after)."""
    class Running:
        entries = [{"kind": "move", "drop": 0.3, "given": 0.3, "before": 0.0, "after": 0.0},
                   {"kind": "move", "drop": 0.1, "given": 0.0, "before": 0.6, "after": 0.5}]
    scene = object.__new__(ReviewScene)
    scene.doc, scene.job = None, Running()
    assert scene.better == 1
    Running.entries[1].update(before=20.0, after=21.0)  # Fox Hunt's probes: less is better
    assert scene.better == -1


def test_a_move_that_gave_up_a_box_is_never_as_good_as_the_best():
    """On 5x5 one box is 0.04 of the points, under the inaccuracy limit: the move stayed "ok"
    and read "As good as the best move" beside "12-13 boxes with this move, 13-12 with the
    best", and no better move was shown."""
    scene = object.__new__(ReviewScene)
    scene.doc = {"unit": "win chance"}
    e = {"before": 1.0, "after": 1.0, "given": 0.04, "class": "ok"}
    assert not scene.as_good(e)
    assert scene.as_good({**e, "given": 0.0})
