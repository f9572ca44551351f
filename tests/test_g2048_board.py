"""The 2048 board headless: keys, drags, animations that never hold a move back, the best score,
the hint and autoplay, and drawing."""

import time

import pygame
import pytest
from hypothesis import given
from hypothesis import settings as examples
from hypothesis import strategies as st

from client.boards.g2048 import Board
from game import settings
from game.rules import g2048 as rules

START = rules.from_rows([[2, 2, 0, 0], [0, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]], seed=4)


@pytest.fixture
def board():
    pygame.init()
    b = Board({}, ("player",), {"g2048_ai_ms": 30}, store=settings.put)
    b.layout(pygame.Rect(0, 0, 600, 600))
    show(b, START, animate=False)
    yield b
    b.worker.cancel()


def show(b: Board, state, last_move=None, animate=True):
    b.set_view(rules.view(state, 0), rules.legal_moves(state), my_turn=True, viewer=0,
               last_move=last_move, animate=animate)


def key(k, mod=0):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="")


def drag(b: Board, start_cell: int, end_cell: int):
    a, z = b.cell_rect(start_cell).center, b.cell_rect(end_cell).center
    assert b.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1)) is None
    return b.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=z, button=1))


@pytest.mark.parametrize("k, move", [(pygame.K_LEFT, "left"), (pygame.K_a, "left"),
                                     (pygame.K_w, "up"), (pygame.K_DOWN, "down"),
                                     (pygame.K_d, "right"), (pygame.K_s, "down")])
def test_keys_give_moves(board, k, move):
    assert board.handle_event(key(k)) == move


def test_keys_that_change_nothing_or_out_of_turn_give_nothing(board):
    full = rules.from_rows([[2, 4, 8, 16], [0] * 4, [0] * 4, [0] * 4])
    show(board, full, animate=False)
    assert board.handle_event(key(pygame.K_LEFT)) is None
    assert board.handle_event(key(pygame.K_DOWN)) == "down"
    assert board.handle_event(key(pygame.K_DOWN, pygame.KMOD_CTRL)) is None
    board.set_view(rules.view(full, 0), [], my_turn=False, viewer=0)
    assert board.handle_event(key(pygame.K_DOWN)) is None


def test_drags_give_moves(board):
    assert drag(board, 0, 3) == "right"
    assert drag(board, 15, 12) == "left"
    assert drag(board, 1, 13) == "down"
    assert drag(board, 12, 0) == "up"
    assert drag(board, 5, 5) is None  # a click is not a swipe


def test_a_move_during_an_animation_snaps_it_to_its_end(board):
    after = rules.apply(START, "left")
    show(board, after, last_move="left")
    assert board.anim is not None and board.anim.merged == {0}
    assert board.anim.spawned is not None and not board.busy()
    assert board.handle_event(key(pygame.K_DOWN)) == "down"
    assert board.anim is None
    show(board, rules.apply(after, "down"), last_move="down")
    for _ in range(30):
        board.update(1 / 60)
    assert board.anim is None


def test_a_jump_is_not_animated(board):
    far = rules.from_rows([[64, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 2]])
    show(board, far, last_move="left")
    assert board.anim is None


def test_best_score_is_kept_and_saved(board):
    assert board.best == 0
    s = rules.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 8]], score=5000)
    show(board, s, animate=False)
    assert board.best == 5000 and settings.get("g2048_best") == 5000
    again = Board({}, ("player",), settings.all_values())
    assert again.best == 5000
    show(again, START, animate=False)
    assert again.best == 5000 and "Best: 5,000" in again.status()


def test_the_2048_banner_shows_once_the_tile_is_made(board):
    before = rules.from_rows([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0] * 4], seed=2)
    show(board, before, animate=False)
    assert board.banner == 0
    show(board, rules.apply(before, "left"), last_move="left")
    assert board.banner > 0 and "2048 reached: keep going!" in board.status()
    surface = pygame.Surface((600, 600))
    board.draw(surface)


def wait_for(b: Board, condition, seconds=30.0):
    """Until condition holds (a hang guard: the first hint may start the bot process, seconds on
    a loaded machine)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        b.update(1 / 60)
        if condition():
            return True
        time.sleep(0.01)
    return False


def test_hint_runs_off_thread_and_shows_a_legal_move(board):
    labels = [label for label, _ in board.actions()]
    assert labels[0].startswith("Hint") and labels[1] == "Autoplay: off"
    board.handle_event(key(pygame.K_h))
    assert board.hint_busy
    assert wait_for(board, lambda: board.hint is not None)
    assert board.hint in board.legal and f"Hint: {board.hint}" in board.status()
    board.draw(pygame.Surface((600, 600)))
    show(board, rules.apply(START, board.hint), last_move=board.hint)
    assert board.hint is None  # a new position forgets the old hint


def test_autoplay_hands_the_bot_moves_to_the_scene(board):
    assert board.pending_move() is None
    actions = dict(board.actions())
    actions["Autoplay: off"]()
    state = START
    played = 0
    end = time.monotonic() + 10
    while played < 3 and time.monotonic() < end:
        board.update(1 / 60)
        move = board.pending_move()
        if move is not None:
            assert move in rules.legal_moves(state)
            state = rules.apply(state, move)
            show(board, state, last_move=move)
            played += 1
        time.sleep(0.005)
    assert played == 3
    speed = board.actions()[2][0]
    board.next_speed()
    assert board.actions()[2][0] != speed
    dict(board.actions())["Autoplay: on"]()
    assert not board.autoplay


def test_draws_at_many_sizes_and_mid_animation(board):
    after = rules.apply(START, "left")
    show(board, after, last_move="left")
    for w, h in ((300, 200), (600, 600), (1200, 700)):
        board.layout(pygame.Rect(0, 0, w, h))
        assert board.grid.width <= w and board.grid.bottom <= h
        surface = pygame.Surface((w, h))
        board.draw(surface)
        board.update(0.06)
        board.draw(surface)
    assert board.sound_for(rules.view(START, 0), rules.view(after, 0), "left") == "capture"


def test_in_the_play_scene_keys_and_autoplay_make_moves(tmp_path):
    from client.scenes.play import PlayScene
    from client.scenes.title import start_match
    from game.match import Match, Seat
    from tests.harness import Harness

    settings.put("g2048_ai_ms", 20)
    h = Harness()
    try:
        match = Match("g2048", None, 8, [Seat("human", "Me")])
        start_match(h.app, match)
        play = h.app.find(PlayScene)
        h.frames(3)
        move = match.legal_moves()[0]
        h.key({"up": pygame.K_UP, "down": pygame.K_DOWN, "left": pygame.K_LEFT,
               "right": pygame.K_RIGHT}[move])
        assert match.moves == [move]
        h.click_button("Speed")
        h.click_button("Speed")  # fast
        h.click_button("Autoplay")
        h.wait_until(lambda: len(match.moves) >= 6, timeout=20)
        assert play.board.autoplay
        h.screenshot(tmp_path / "g2048.png")
    finally:
        h.close()


def test_autoplay_moves_after_a_hint_was_shown(board):
    board.handle_event(key(pygame.K_h))
    assert wait_for(board, lambda: board.hint is not None)
    dict(board.actions())["Autoplay: off"]()
    end = time.monotonic() + 10
    move = None
    while move is None and time.monotonic() < end:
        board.update(1 / 60)
        move = board.pending_move()
        time.sleep(0.005)
    assert move in rules.legal_moves(START)


@examples(max_examples=60, deadline=None)
@given(width=st.integers(150, 1400), height=st.integers(150, 1000))
def test_the_title_and_the_score_tags_never_lie_over_each_other(width, height):
    """Whatever the room (the review's half-width board too): the two score tags stand apart,
    and the "2048" title is drawn only where the tags leave it room (it lay under them)."""
    pygame.init()
    board = Board({}, ("player",), {"g2048_ai_ms": 30}, store=settings.put)
    show(board, START, animate=False)
    board.layout(pygame.Rect(0, 0, width, height))
    board.draw(pygame.Surface((width, height)))
    *title, best, score = board.header_marks
    assert best.left - score.right >= 12
    assert all(not t.colliderect(score) for t in title)


def test_the_autoplay_speed_is_kept_for_the_next_game():
    """Fast before Menu, normal again after Continue."""
    settings.reset_for_tests()
    first = Board({}, ("player",), prefs=settings.all_values(), store=settings.put)
    assert first.speed == 1
    first.next_speed()  # fast
    again = Board({}, ("player",), prefs=settings.all_values(), store=settings.put)
    assert again.speed == first.speed == 2
    for crafted in (-1, 99, "fast", None):
        assert Board({}, ("player",), prefs={"g2048_autoplay_speed": crafted}).speed == 1
