"""A replay opened from the browser, and the game Continue goes on with, are read and rebuilt
off the loop thread: a 2048 game of 30,000 moves takes seconds to replay, and the window must
go on drawing meanwhile. Each test holds the read at a gate and looks at the screen."""

from __future__ import annotations

import random
import threading

import pygame
import pytest

from ai.review import Review
from client.scenes.play import PlayScene
from client.scenes.replays import ReplayBrowserScene, ReplayPlayerScene
from client.scenes.title import TitleScene
from game import replay, saves
from game.match import Match, Seat

GATE_SECONDS = 10.0  # only a guard: a read on the loop thread would hold the test this long


def finished(seed: int = 3) -> Match:
    """An Ataxx game played to its end with random legal moves."""
    match = Match("ataxx", None, seed, [Seat("human", "Ann"), Seat("human", "Bob")])
    rng = random.Random(seed)
    while not match.over:
        match.play(match.rules.move_to_wire(rng.choice(match.legal_moves())))
    return match


class Gate:
    """Wraps a reader: each call notes its thread and waits until the gate opens."""

    def __init__(self, read):
        self.read, self.threads, self.open = read, [], threading.Event()

    def __call__(self, *args, **kwargs):
        self.threads.append(threading.current_thread())
        self.open.wait(GATE_SECONDS)
        return self.read(*args, **kwargs)


@pytest.fixture
def gated_replay(monkeypatch):
    gate = Gate(replay.load_replay)
    monkeypatch.setattr(replay, "load_replay", gate)
    yield gate
    gate.open.set()


def browse(h) -> ReplayBrowserScene:
    replay.save_replay(finished(), 60.0)
    h.app.push("replays")
    browser = h.top
    assert isinstance(browser, ReplayBrowserScene)
    h.wait_until(lambda: not browser.loading and browser.entries)
    return browser


def test_a_replay_is_opened_off_the_loop_and_its_button_says_so_meanwhile(h, gated_replay):
    browser = browse(h)
    h.key(pygame.K_RETURN)
    h.frames(3)  # the loop goes on while the file is read
    assert h.top is browser
    assert [t is threading.main_thread() for t in gated_replay.threads] == [False]
    open_button = browser.for_an_entry[0]
    assert open_button.label == "Opening…" and not open_button.enabled
    h.key(pygame.K_RETURN)  # pressed again while it is read: still one read
    h.key(pygame.K_DELETE)  # nor is the file deleted from under its read
    assert h.top is browser and not browser.for_an_entry[1].enabled
    gated_replay.open.set()
    h.wait_until(lambda: isinstance(h.top, ReplayPlayerScene))
    assert len(gated_replay.threads) == 1
    assert h.top.match.moves == finished().moves
    h.app.pop()
    h.frame()
    assert open_button.label == "Open (Enter)" and open_button.enabled


def test_a_replay_still_being_read_when_the_player_goes_back_never_opens(h, gated_replay):
    browse(h)
    h.key(pygame.K_RETURN)
    h.frame()
    h.key(pygame.K_ESCAPE)
    assert isinstance(h.top, TitleScene)
    gated_replay.open.set()
    h.wait_until(lambda: not gated_replay.threads[0].is_alive())
    h.frames(3)
    assert isinstance(h.top, TitleScene)


def test_a_damaged_replay_is_told_of_after_its_read_and_put_aside(h, gated_replay):
    browser = browse(h)
    path = browser.entries[0].path
    path.write_bytes(b"not a replay")
    h.key(pygame.K_RETURN)
    h.frame()
    assert not h.app.toasts and path.exists()
    gated_replay.open.set()
    h.wait_until(lambda: h.app.toasts)
    assert "cannot be read" in h.app.toasts[-1][0] and not path.exists()
    assert h.top is browser
    h.wait_until(lambda: not browser.loading)
    assert browser.entries == []


def test_continue_rebuilds_the_game_off_the_loop(h, monkeypatch):
    match = Match("ataxx", None, 5, [Seat("human", "Ann"), Seat("ai", "Bot", "easy")])
    match.play(match.rules.move_to_wire(match.legal_moves()[0]))
    saves.save(match, saves.autosave_name(match))
    gate = Gate(saves.load)
    monkeypatch.setattr(saves, "load", gate)
    title = h.top
    title.enter()  # lists the autosave
    h.click_button("Continue")
    h.frames(3)
    assert h.top is title and [t is threading.main_thread() for t in gate.threads] == [False]
    button = next(b for b in title.other_buttons if b.on_click == title.continue_game)
    assert button.label == "Opening…" and not button.enabled
    gate.open.set()
    h.wait_until(lambda: isinstance(h.top, PlayScene))
    assert h.top.match.moves == match.moves


class NoReview(Review):
    """A review that judges nothing (these tests are about the screen's Try again)."""

    def run(self):
        return iter(())


def review_at_the_end(h, monkeypatch) -> tuple[Gate, object]:
    """The review of a finished 2048 game, at its last move, with its rebuild held at a gate."""
    from client.scenes import review as review_scene
    monkeypatch.setattr(review_scene, "REVIEWER", NoReview)
    gate = Gate(review_scene.rebuilt)
    monkeypatch.setattr(review_scene, "rebuilt", gate)
    match = Match("g2048", None, 4, [Seat("human", "Ann")])
    rng = random.Random(4)
    while not match.over:
        match.play(rng.choice(match.legal_moves()))
    scene = h.app.push("review", match=match, ply=len(match.moves))
    h.frame()
    return gate, scene


def test_try_again_rebuilds_the_game_off_the_loop(h, monkeypatch):
    gate, review = review_at_the_end(h, monkeypatch)
    h.click_button("Try again from here")  # one player: no one to ask who plays
    h.frames(3)
    assert h.top is review and [t is threading.main_thread() for t in gate.threads] == [False]
    assert review.try_button.label == "Opening…" and not review.try_button.enabled
    gate.open.set()
    h.wait_until(lambda: isinstance(h.top, PlayScene))
    assert h.top.match.moves == review.match.moves[:-1]


def test_try_again_left_behind_starts_no_game(h, monkeypatch):
    gate, review = review_at_the_end(h, monkeypatch)
    h.click_button("Try again from here")
    h.frame()
    h.app.pop()  # Back, while the game is rebuilt
    gate.open.set()
    h.wait_until(lambda: not gate.threads[0].is_alive())
    h.frames(3)
    assert not any(isinstance(s, PlayScene) for s in h.app.stack)
