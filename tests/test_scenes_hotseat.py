"""Hot-seat as two people at one screen play it: see your move's answer, hand over only when
the game hides something, and undo never takes back the other player's move unasked."""

import random

import pygame

from ai.base import Budget
from client.scenes import play_view
from client.scenes.base import start_match
from client.scenes.dialog import ConfirmScene, HandoverScene
from client.scenes.play import PlayScene
from game.match import Match, Seat
from players.table import REVEAL_SECONDS
from tests.fakes.cancel import frozen_clock

TWO = [Seat("human", "Ann"), Seat("human", "Ben")]


def _take_the_computer(h) -> PlayScene:
    h.frame()
    assert isinstance(h.top, HandoverScene)
    h.key(pygame.K_RETURN)
    assert isinstance(h.top, PlayScene)
    return h.top


def test_the_planes_shooter_sees_the_answer_before_the_hand_over(h, monkeypatch):
    """While the shooter sees the answer, their own seat is lit in the panel, as their board
    is drawn (the next player's was lit beside the shooter's planes)."""
    now = [100.0]
    match = Match("planes", None, 5, list(TWO))
    start_match(h.app, match, now=lambda: now[0])
    for seat in (0, 1):  # both set up their planes
        play = _take_the_computer(h)
        layout = play.match.info.ai_module().choose_setup(
            match.view(seat), Budget(1.0, now=frozen_clock()), "easy", random.Random(seat))
        assert play.try_move(layout)
        h.key(pygame.K_SPACE, " ")
    play = _take_the_computer(h)
    shot = match.legal_moves()[0]
    assert play.try_move(shot)
    now[0] += REVEAL_SECONDS - 0.1  # just before the reveal ends the shooter still sees it
    lit = []
    monkeypatch.setattr(play_view.paper, "highlight", lambda surface, rect, colour:
                        lit.append(rect.y))
    h.frames(3)
    assert h.top is play and play.board.viewer == 0
    assert "hand over" in play.status_text()
    assert lit and set(lit) == {play.side.y + 10}  # the shooter's seat is lit, not the next
    now[0] += 0.2  # then, unasked, the hand-over
    h.frames(3)
    assert isinstance(h.top, HandoverScene)
    assert play.board.view is None


def test_banqi_without_fog_never_hands_over_and_with_fog_does(h):
    start_match(h.app, Match("banqi", {"fog": False}, 5, list(TWO)))
    for _ in range(3):
        h.frame()
    play = h.top
    assert isinstance(play, PlayScene) and not play.hidden_hotseat
    assert play.try_move(play.match.legal_moves()[0])
    for _ in range(3):
        h.frame()
    assert h.top is play and play.table.human_to_move() == 1
    start_match(h.app, Match("banqi", {"fog": True}, 5, list(TWO)))
    h.frame()
    assert isinstance(h.top, HandoverScene)


def test_hot_seat_undo_asks_before_taking_back_the_other_players_move(h):
    match = Match("ataxx", None, 5, list(TWO))
    start_match(h.app, match)
    h.frame()
    play = h.top
    assert play.try_move(match.legal_moves()[0])
    h.frame()
    h.key(pygame.K_u, "u")  # Ben, to move, presses Undo: Ann's move is not Ben's to take
    assert isinstance(h.top, ConfirmScene) and "Ann" in h.top.message
    # the move was Ann's; the turn is Ben's (it said "It is Ann's move, not yours")
    assert "The last move was Ann" in h.top.detail and "It is" not in h.top.detail
    assert len(match.moves) == 1
    h.key(pygame.K_n, "n")
    assert len(match.moves) == 1
    h.key(pygame.K_u, "u")
    h.key(pygame.K_y, "y")
    assert match.moves == [] and match.to_move() == 0


def test_in_hidden_hot_seat_the_mover_takes_back_their_own_move_before_handing_over(h, race):
    match = Match("race", None, 11, list(TWO))
    start_match(h.app, match)
    play = _take_the_computer(h)
    h.key(pygame.K_2, "2")
    assert match.moves == [2] and play.revealing
    h.key(pygame.K_u, "u")
    assert match.moves == [] and h.top is play and play.table.shown_viewer == 0


def test_banqi_seat_dots_show_the_colour_each_seat_plays(h):
    match = Match("banqi", None, 5, list(TWO))
    start_match(h.app, match)
    h.frame()
    play = h.top
    from client.boards.banqi import BLACK, RED
    assert play.board.seat_colour(0) == play.board.seat_colour(1)  # no colour before a flip
    flip = next(m for m in match.legal_moves() if len(m) == 2)
    assert play.try_move(flip)
    colours = match.view(None)["colors"]
    ink = {"red": RED, "black": BLACK}
    assert [play.board.seat_colour(s) for s in (0, 1)] == [ink[c] for c in colours]


def test_the_dots_panel_stops_asking_for_a_line_once_the_game_is_over(h):
    match = Match("dots", {"rows": 1, "cols": 1}, 5, list(TWO))
    start_match(h.app, match)
    h.frame()
    play = h.top
    while not match.over:
        assert play.try_move(match.legal_moves()[0])
    h.frame()
    assert not any("to draw a line" in line for line in play.board.status())


def test_the_panel_names_each_side_by_the_ink_it_is_drawn_in(h):
    start_match(h.app, Match("ataxx", None, 5, list(TWO)))
    h.frame()
    assert [h.top.board.side_name(s) for s in (0, 1)] == ["x · red", "o · blue"]
    start_match(h.app, Match("banqi", {"fog": True}, 5, [Seat("human", "Ann"),
                                                         Seat("ai", "Bot", "easy")]))
    h.frame()
    play = h.top
    assert "Faded" in play.board.fog_note()  # the fog's legend, under the board
    flip = next(m for m in play.match.legal_moves() if len(m) == 2)
    assert play.try_move(flip)
    colour = play.match.view(None)["colors"][0]
    assert play.board.side_name(0) == f"first · {colour}"
