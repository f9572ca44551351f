"""Secrets on pixels (issue 29, 1-2): a scripted hot-seat game through the real play scene is
drawn three times, once as it is, once with seat 1's secrets changed and once with seat 0's.
Every frame drawn while seat A has the computer is the same whatever seat B's secrets are, and
every frame of a hand-over is the same whatever either seat's are.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable

import pygame
import pytest

from client.scenes.base import start_match
from client.scenes.dialog import HandoverScene
from client.scenes.play import PlayScene
from client.scenes.title import TitleScene
from game.match import Match, Seat
from game.rules import banqi, planes
from tests.harness import Harness

NOBODY = "nobody"  # no seat has the computer: a hand-over


def frames_of(game: str, options: dict | None, seed: int,
              script: Callable[[Harness, Callable[[int], None]], None]) -> list[tuple]:
    """Play the script through a fresh arcade; every frame drawn as (who sits, its digest)."""
    h = Harness((1000, 700))
    h.app.push(TitleScene(h.app))
    h.frame()
    now = [100.0]
    shots: list[tuple] = []
    match = Match(game, options, seed, [Seat("human", "Ann"), Seat("human", "Ben")])
    start_match(h.app, match, now=lambda: now[0])
    play = next(s for s in h.app.stack if isinstance(s, PlayScene))
    if hasattr(play.board, "rng"):
        play.board.rng = random.Random(7)  # the board's first layout is the same every run
        play.board.placing = [list(p) for p in play.board._random_layout()]

    def frames(n: int, *events: pygame.event.Event, later: float = 0.0) -> None:
        now[0] += later
        for i in range(n):
            h.app.toasts = []
            h.frame(*(events if i == 0 else ()))
            sitting = play.table.viewer()
            if isinstance(h.top, HandoverScene) or (sitting is None and not match.over):
                sitting = NOBODY
            digest = hashlib.sha1(pygame.image.tobytes(h.app.screen, "RGB")).hexdigest()
            shots.append((sitting, type(h.top).__name__, digest))

    try:
        script(h, frames)
    finally:
        h.close()
    return shots


def assert_secrets_kept(base: list, seat1_changed: list, seat0_changed: list) -> None:
    assert len(base) == len(seat1_changed) == len(seat0_changed)
    assert {s for s, _, _ in base} >= {0, 1, NOBODY}
    for i, (a, b, c) in enumerate(zip(base, seat1_changed, seat0_changed)):
        assert a[:2] == b[:2] == c[:2], f"frame {i}: the script went another way"
        sitting = a[0]
        if sitting in (0, NOBODY):
            assert a[2] == b[2], f"frame {i} ({a[1]}, seat {sitting}) shows seat 1's secret"
        if sitting in (1, NOBODY):
            assert a[2] == c[2], f"frame {i} ({a[1]}, seat {sitting}) shows seat 0's secret"


def key(k: int, char: str = "") -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, unicode=char, mod=0, scancode=0)


def click(pos) -> list[pygame.event.Event]:
    return [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
            pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)]


# --- planes: the layouts are the secrets
def _layout(seed: int) -> list:
    rng = random.Random(seed)
    index, _layouts = planes.layouts(10, 3)
    every = planes.all_planes(10)
    return [list(every[p]) for p in index[rng.randrange(len(index))]]


def _cells(layout) -> set[int]:
    return {r * 10 + c for plane in layout for r, c in planes.plane_cells(*plane)}


def planes_script(layouts: tuple[list, list], misses: tuple[list, list]):
    def script(h: Harness, frames) -> None:
        play = next(s for s in h.app.stack if isinstance(s, PlayScene))
        for seat in (0, 1):  # each hides their planes, dragged to their own layout
            frames(3)
            assert isinstance(h.top, HandoverScene)
            frames(4, key(pygame.K_RETURN))
            assert play.table.viewer() == seat
            play.board.placing = [list(p) for p in layouts[seat]]  # as the drags left them
            frames(3)
            frames(3, key(pygame.K_RETURN))
            frames(4, later=3.0)  # the reveal ends: the hand-over
        for turn in range(6):
            seat = turn % 2
            assert isinstance(h.top, HandoverScene)
            frames(4, key(pygame.K_RETURN))
            assert play.table.viewer() == seat
            cell = misses[seat][turn // 2]
            target = play.board.cell_rect(play.board.enemy_rect, cell).center
            for event in click(target):
                frames(1, event)
            frames(5)  # the answer shows
            frames(4, later=3.0)
    return script


def test_no_frame_of_a_planes_hot_seat_game_shows_the_absent_players_planes():
    ann, ann2, ben, ben2 = (_layout(s) for s in (1, 2, 3, 4))
    assert ann != ann2 and ben != ben2
    # each shoots only cells both of the other's layouts leave empty: the same answers
    free_of_ben = sorted(set(range(100)) - _cells(ben) - _cells(ben2))[:3]
    free_of_ann = sorted(set(range(100)) - _cells(ann) - _cells(ann2))[-3:]
    misses = (free_of_ben, free_of_ann)
    base = frames_of("planes", None, 5, planes_script((ann, ben), misses))
    ben_changed = frames_of("planes", None, 5, planes_script((ann, ben2), misses))
    ann_changed = frames_of("planes", None, 5, planes_script((ann2, ben), misses))
    assert_secrets_kept(base, ben_changed, ann_changed)


# --- Banqi with fog: where a seat's pieces go under the other's clouds is its secret
def _quiet(state) -> list[str]:
    return [m for m in banqi.legal_moves(state)
            if len(m) == 4 and state.board[banqi.parse_square(m[2:])] == "."]


def _forks(state) -> tuple | None:
    """Two quiet moves a, b of the mover X the other seat Y cannot tell apart, then two quiet
    answers c, d of Y's that X cannot tell apart, and after which Y still sees the same
    whichever of a, b X played: ((a, b), (c, d)), or None."""
    x = banqi.to_move(state)
    y = 1 - x
    after = {m: banqi.apply(state, m) for m in _quiet(state)}
    for a in after:
        for b in after:
            if a >= b or banqi.view(after[a], y) != banqi.view(after[b], y):
                continue
            sa, sb = after[a], after[b]
            answers = [m for m in _quiet(sa) if m in _quiet(sb)]
            for c in answers:
                sac, sbc = banqi.apply(sa, c), banqi.apply(sb, c)
                if banqi.view(sac, y) != banqi.view(sbc, y) or banqi.outcome(sac) is not None:
                    continue
                for d in answers:
                    if d != c and banqi.view(banqi.apply(sa, d), x) == banqi.view(sac, x):
                        return (a, b), (c, d)
    return None


def _fog_game(seed: int) -> tuple[list, tuple | None]:
    """Random moves (a seeded generator) up to a position with forks (see _forks)."""
    rng = random.Random(seed)
    state = banqi.new_game({"fog": True}, seed)
    moves: list = []
    for _ in range(300):
        if banqi.outcome(state) is not None:
            break
        if len(moves) > 10:
            found = _forks(state)
            if found is not None:
                return moves, found
        move = rng.choice(banqi.legal_moves(state))
        moves.append(move)
        state = banqi.apply(state, move)
    return [], None


def banqi_script(before: list, mine: str, answer: str):
    """The moves before, then X's move `mine` and Y's `answer` through the board's input, and X
    back at the screen."""
    def script(h: Harness, frames) -> None:
        play = next(s for s in h.app.stack if isinstance(s, PlayScene))
        m = play.match
        h.frame()
        for move in before:  # the same in every run: not recorded
            if isinstance(h.top, HandoverScene):
                h.key(pygame.K_RETURN)
            assert play.try_move(move)
            h.frame(dt=1.0)
            if play.table.revealing:
                play.end_reveal()
            h.frame()
        for move in (mine, answer):
            if isinstance(h.top, HandoverScene):
                frames(3, key(pygame.K_RETURN))
            frames(2)
            for sq in (move[:2], move[2:]):
                target = play.board.square_rect(banqi.parse_square(sq)).center
                for event in click(target):
                    frames(1, event)
            assert m.moves[-1] == move
            frames(6)
            frames(4, later=3.0)
        assert isinstance(h.top, HandoverScene)
        frames(3, key(pygame.K_RETURN))
        frames(6)
    return script


@pytest.mark.long
def test_no_frame_of_a_fog_banqi_hot_seat_game_shows_where_the_absent_players_pieces_went():
    for seed in range(100):
        before, forks = _fog_game(seed)
        if forks:
            break
    assert forks, "no game with both forks found"
    (a, b), (c, d) = forks
    state = banqi.new_game({"fog": True}, seed)
    for move in before:
        state = banqi.apply(state, move)
    x = banqi.to_move(state)
    base = frames_of("banqi", {"fog": True}, seed, banqi_script(before, a, c))
    y_changed = frames_of("banqi", {"fog": True}, seed, banqi_script(before, a, d))
    x_changed = frames_of("banqi", {"fog": True}, seed, banqi_script(before, b, c))
    changed = {x: x_changed, 1 - x: y_changed}
    assert_secrets_kept(base, changed[1], changed[0])
