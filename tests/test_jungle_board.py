"""The Jungle board: mouse and keyboard make moves, seat 1 sees the board turned round."""

import pygame
import pytest

from client.boards.jungle import Board
from game.rules import jungle as rules


@pytest.fixture
def board():
    pygame.init()
    b = Board(rules.normalize_options(None), rules.SEAT_NAMES)
    b.layout(pygame.Rect(0, 0, 560, 720))
    return b


def click(b: Board, name: str):
    pos = b.square_rect(rules.parse_square(name)).center
    return b.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos))


def key(b: Board, k: int):
    return b.handle_event(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))


def show(b: Board, state: rules.State, viewer: int, mine: bool = True) -> None:
    b.set_view(rules.view(state, viewer), rules.legal_moves(state) if mine else [],
               my_turn=mine, viewer=viewer, animate=False)


def test_click_an_animal_then_a_target(board):
    show(board, rules.new_game(None, 0), 0)
    assert click(board, "a3") is None and board.selected == rules.parse_square("a3")
    assert set(map(rules.square_name, board.targets(board.selected))) == {"a4", "a2", "b3"}
    assert click(board, "c4") is None  # water is no target of the rat's: selection dropped
    assert board.selected is None
    click(board, "a3")
    assert click(board, "a4") == "a3a4"


def test_keys_move_the_cursor_and_enter_plays(board):
    show(board, rules.new_game(None, 0), 0)
    board.cursor = rules.parse_square("c3")
    assert key(board, pygame.K_RETURN) is None
    key(board, pygame.K_LEFT)
    assert board.cursor == rules.parse_square("b3")
    assert key(board, pygame.K_RETURN) == "c3b3"


def test_seat_one_sees_its_own_camp_at_the_bottom(board):
    s = rules.apply(rules.new_game(None, 0), "a3a4")
    show(board, s, 1)
    assert board.square_rect(rules.parse_square("g9")).bottom == board.rect.centery + \
        board.cell * rules.RANKS // 2
    assert board.square_at(board.square_rect(rules.parse_square("b8")).center) == \
        rules.parse_square("b8")
    key(board, pygame.K_UP)  # up the screen is toward rank 1 for blue
    assert board.cursor == rules.parse_square("d2")
    click(board, "g7")
    assert click(board, "g6") == "g7g6"


def test_no_move_when_it_is_not_my_turn(board):
    show(board, rules.new_game(None, 0), 1, mine=False)
    assert click(board, "a3") is None and click(board, "a4") is None


def test_a_capture_sounds_as_one(board):
    before = rules.from_board("t6/7/7/7/3p3/3P3/7/7/6T", 0)
    after = rules.apply(before, "d4d5")
    assert board.sound_for(rules.view(before, 0), rules.view(after, 0), "d4d5") == "capture"
    quiet = rules.apply(before, "d4d3")
    assert board.sound_for(rules.view(before, 0), rules.view(quiet, 0), "d4d3") == "move"


def test_draws_headless(board, tmp_path):
    show(board, rules.new_game(None, 0), 0)
    click(board, "a3")
    surface = pygame.Surface((560, 720))
    board.draw(surface)
    # the selected rat's square is outlined in the accent colour
    rect = board.square_rect(rules.parse_square("a3"))
    assert surface.get_at((rect.x + 1, rect.y + 1))[:3] == (214, 120, 40)


@pytest.mark.parametrize("glyphs", ["auto", "letters", "simplified"])
@pytest.mark.parametrize("lang", ["en", "zh_CN", "zh_TW"])
def test_an_animal_can_be_read_at_any_cell_size(board, lang, glyphs):
    """From the smallest cell a window gives (the review's at 800x560, 19 px) up: the words on
    a disc are at least 12 px and fit their square, a rank badge's digit at least 11 px, and a
    player who does not read Chinese always sees the rank (the badge, or on a small disc the
    rank alone). At 19 px the character used to be drawn 8 px high under a badge that covered
    it; at the play screen's 49 px the badge's digit was 9 px."""
    from client.ui import theme
    from game import i18n
    i18n.set_language(lang)
    try:
        board.prefs = {"jungle_glyphs": glyphs}
        show(board, rules.new_game(None, 0), 0)
        ranks = rules.RANKS_OF[board.view["options"]["ranks"]]
        for cell in range(18, 72, 3):
            board.cell = cell
            for piece in "ELTPWDCRelt":
                face = board.face(piece)
                assert face.size >= 12 and 2 * face.radius <= cell, (cell, piece, face)
                font = theme.cjk_font(face.size) if face.cjk else theme.font(face.size, True)
                assert font.size(face.text)[0] <= cell, (cell, piece, face)
                if face.badge:  # its digit as readable as the words (it was 9 px at 49 px)
                    assert face.badge_size >= 11, (cell, piece, face)
                reads_chinese = lang != "en" or glyphs == "simplified"
                if not reads_chinese and not face.badge:
                    assert face.text == str(ranks[piece.upper()]), (cell, piece, face)
    finally:
        i18n.set_language("en")
