"""Placing planes: R and the wheel turn a plane about its middle and keep it on the board, and
only the plane that overlaps is marked."""  # moving off the board stays allowed (and red)

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from client.boards.planes import Board
from game.rules import planes as rules
from tests.fakes.cancel import frozen_clock


@pytest.fixture
def board():
    pygame.init()
    b = Board({"size": 10, "planes": 3, "equal_turns": False}, rules.SEAT_NAMES)
    s = rules.new_game()
    b.set_view(rules.view(s, 0), [], my_turn=True, viewer=0)
    b.layout(pygame.Rect(0, 0, 700, 560))
    b.placing = [[0, 2, "up"], [4, 7, "up"], [6, 2, "left"]]
    b.selected = 0
    return b


def cells(plane) -> set:
    return set(rules.plane_cells(*plane))


def key(k: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="")


def test_a_turn_is_about_the_planes_middle(board):
    board.placing[0] = [3, 4, "up"]  # room all round
    middle = (4, 4)
    for _ in range(4):
        board.handle_event(key(pygame.K_r))
        assert middle in cells(board.placing[0])
        assert rules.fits(10, *board.placing[0])
    assert board.placing[0] == [3, 4, "up"]


def test_turning_at_the_edge_keeps_the_whole_plane_on_the_board(board):
    for _ in range(8):
        board.handle_event(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
        assert rules.fits(10, *board.placing[0]), board.placing[0]
        assert len(cells(board.placing[0])) == 10


def test_only_the_plane_that_overlaps_is_marked(board):
    board.placing[1] = [0, 5, "up"]  # its wing over plane 0's
    board.selected = 1
    assert board.invalid_planes() == {1}
    board.selected = 2
    assert len(board.invalid_planes()) == 1


@pytest.mark.parametrize("size", [(560, 420), (700, 560), (1500, 1000)])
def test_a_grids_caption_clears_its_column_letters_at_any_size(board, size):
    from client.ui import theme
    board.layout(pygame.Rect(0, 0, *size))
    grid = board.own_rect
    letters = theme.font(board._coord_size()).size("A")
    letter_top = grid.y - 4 - letters[1]
    for words, px in (("Hide your planes", 22), ("藏好你的飞机", 22), ("Your planes", 20)):
        caption = theme.font(px, True).size(words)
        bottom = board._caption_bottom(grid)
        assert bottom <= letter_top, (size, words)  # the caption ends above the letters
        assert bottom - caption[1] >= 0  # and begins inside the window


def test_a_lan_games_end_draws_while_the_other_layout_is_still_hidden(monkeypatch):
    """Found with two windows: at a LAN game's end each side showed both grids, the other's
    layout still "hidden" until its reveal came, and drawing it crashed both arcades."""
    import random

    from net.secrets.planes import PlaneLayouts
    from tests.fakes.wire import memory_pair
    from tests.test_lan import local_move

    monkeypatch.setattr(PlaneLayouts, "proven", lambda self, message: None)  # not come yet
    pygame.init()
    h, g = memory_pair("planes", seed=5)
    rng = random.Random(1)
    while not (h.match.over and g.match.over):
        for s in (h, g):
            s.events()
        s = h if h.match.to_move() == h.seat else g
        if not s.match.over and not s.waiting and s.match.to_move() == s.seat:
            s.submit(local_move(s, rng))
    surface = pygame.Surface((900, 600))
    for s in (h, g):
        view = s.match.view(None)
        assert view["layouts"][s.peer_seat] == "hidden"  # the reveal has not come yet
        board = Board(s.match.options, rules.SEAT_NAMES)
        board.set_view(view, [], my_turn=False, viewer=None)
        board.layout(pygame.Rect(0, 0, 900, 600))
        board.draw(surface)


def _played_planes(plies: int):
    import random

    from ai.base import Budget, decide_setup
    from game.match import Match, Seat
    match = Match("planes", None, 7, [Seat("human", "Ann"), Seat("human", "Bo")])
    rng = random.Random(7)
    while len(match.moves) < plies and not match.over:
        if match.setup_pending():
            match.play(decide_setup("planes", match.view(match.to_move()), "random",
                                    Budget(0.0, now=frozen_clock()), rng))
        else:
            match.play(match.rules.move_to_wire(rng.choice(match.legal_moves())))
    return match


@settings(max_examples=60, deadline=None)
@given(width=st.integers(240, 1600), height=st.integers(200, 1100),
       lang=st.sampled_from(["en", "zh_CN", "zh_TW"]), viewer=st.sampled_from([None, 0]))
def test_the_two_grids_captions_never_run_into_each_other(width, height, lang, viewer):
    """Whatever the room and the language, each grid's caption keeps clear of the other's and
    inside the board's rect (at the review's half width in English, "red's planes" and
    "blue's planes" ran together)."""
    from game import i18n
    pygame.init()
    match = _played_planes(12)
    i18n.set_language(lang)
    try:
        board = Board(match.options, rules.SEAT_NAMES)
        board.set_view(match.view(viewer), [], my_turn=viewer == 0, viewer=viewer)
        rect = pygame.Rect(5, 5, width, height)
        board.layout(rect)
        board.draw(pygame.Surface((width + 10, height + 10)))
        first, second = board.captions
        assert not first.colliderect(second), (first, second)
        for caption in board.captions:
            assert rect.left <= caption.left and caption.right <= rect.right, (caption, rect)
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("size", [(560, 420), (700, 560), (1500, 1000)])
def test_a_player_who_has_hidden_their_planes_sees_them_while_the_other_side_hides(size):
    """After Ready, while the other side still hides its planes, the board shows this side's
    own planes (hot-seat: what the player just hid, before the hand-over, as after a shot);
    it showed only "The other side is hiding its planes…". Watching, nobody's are drawn."""
    import random

    from ai import planes as bot
    from ai.base import Budget
    pygame.init()
    s = rules.new_game()
    layout = bot.choose_setup(rules.view(s, 0),
                              Budget(1.0, now=frozen_clock()), "easy", random.Random(1))
    s = rules.apply(s, layout)
    surface = pygame.Surface(size)
    b = Board({"size": 10, "planes": 3, "equal_turns": False}, rules.SEAT_NAMES)
    b.set_view(rules.view(s, 0), [], my_turn=False, viewer=0)
    b.layout(surface.get_rect())
    b.draw(surface)
    planes = {r * 10 + c for p in layout for r, c in rules.plane_cells(*p)}
    water = surface.get_at(b.cell_rect(b.own_rect, min(set(range(100)) - planes)).center)
    assert all(surface.get_at(b.cell_rect(b.own_rect, cell).center) != water for cell in planes)
    assert len(b.captions) == 1 and b.captions[0].bottom <= b.own_rect.y
    b.set_view(rules.view(s, None), [], my_turn=False, viewer=None)
    b.captions = []
    b.draw(surface)
    assert b.captions == []
