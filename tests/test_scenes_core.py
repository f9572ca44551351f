"""The client driven with synthetic events: menu, setup, play, undo, resign, result, Esc."""

import pygame
import pytest

from client.scenes.base import start_match
from client.scenes.dialog import ConfirmScene, HandoverScene
from client.scenes.play import PlayScene
from client.scenes.replays import ReplayPlayerScene
from client.scenes.result import ResultScene
from client.scenes.setup import SetupScene
from client.scenes.title import TitleScene
from game import saves
from game.match import Match, Seat
from tests.harness import Harness


@pytest.fixture
def h(race):
    harness = Harness()
    harness.app.push(TitleScene(harness.app))
    harness.frame()
    yield harness
    harness.close()


def test_title_lists_the_games_and_opens_setup(h):
    labels = [b.label for b in h.find_buttons()]
    assert "Settings" in labels and "Replays" in labels
    h.top.open_setup("race")
    h.frame()
    assert isinstance(h.top, SetupScene)
    h.key(pygame.K_ESCAPE)
    assert isinstance(h.top, TitleScene)


def test_against_the_bot_with_undo_resign_and_result(h, tmp_path):
    h.top.open_setup("race")
    h.frame()
    setup = h.top
    setup.opponent.select([v for v, _ in setup.opponent.choices].index("easy"))
    setup.option_rows["pile"].select(2)  # pile 9
    h.click_button("Start")
    play = h.top
    assert isinstance(play, PlayScene) and play.match.options == {"pile": 9}
    assert play.match.seats[0].kind == "human"
    h.key(pygame.K_2, "2")
    h.wait_until(lambda: len(play.match.moves) == 2)  # the bot answered
    assert play.match.moves[1] == 3  # takes the pile down to a multiple of four
    h.screenshot(tmp_path / "play.png")
    h.key(pygame.K_u, "u")
    assert play.match.moves == [] and play.match.to_move() == 0
    h.key(pygame.K_1, "1")
    h.wait_until(lambda: len(play.match.moves) == 2)
    h.click_button("Resign")
    assert isinstance(h.top, ConfirmScene)
    h.key(pygame.K_y, "y")
    assert play.match.outcome().winner == 1
    h.wait_until(lambda: isinstance(h.top, ResultScene))
    h.settle()
    assert h.top.headline == "You lose"
    h.screenshot(tmp_path / "result.png")
    h.click_button("Menu")
    assert isinstance(h.top, TitleScene)


def test_esc_asks_before_leaving_and_the_game_can_be_continued(h):
    match = Match("race", None, 11, [Seat("human", "A"), Seat("human", "B")])
    start_match(h.app, match)
    h.frame()
    play = h.app.find(PlayScene)
    assert isinstance(h.top, HandoverScene)  # hidden-information hot-seat: hand over first
    assert play.board.view is None  # nothing of either seat is on screen yet
    h.key(pygame.K_ESCAPE)
    assert isinstance(h.top, ConfirmScene)
    h.key(pygame.K_n, "n")
    assert h.top is play or isinstance(h.top, HandoverScene)
    h.wait_until(lambda: isinstance(h.top, HandoverScene))
    h.key(pygame.K_RETURN)
    assert play.table.shown_viewer == 0
    h.key(pygame.K_3, "3")
    assert play.match.moves == [3]
    h.frame()
    assert h.top is play and play.board.viewer == 0  # the mover sees the answer first
    h.key(pygame.K_SPACE, " ")  # seen: hand over
    assert isinstance(h.top, HandoverScene)  # seat 1 must not see seat 0's view
    h.key(pygame.K_RETURN)
    h.key(pygame.K_ESCAPE)
    h.key(pygame.K_y, "y")
    assert isinstance(h.top, TitleScene)
    h.wait_until(lambda: saves.has_autosave())
    h.top.enter()
    h.click_button("Continue")
    h.wait_until(lambda: isinstance(h.top, HandoverScene))  # the save is read off the loop
    resumed = h.app.find(PlayScene)
    assert resumed is not play and resumed.match.moves == [3]
    assert resumed.board.view is None  # handed over before anything of a seat is shown


def test_refused_move_says_why_and_changes_nothing(h):
    match = Match("race", {"pile": 5}, 2, [Seat("human", "A"), Seat("ai", "B", "easy")])
    start_match(h.app, match)
    h.frame()
    play = h.top
    assert not play.try_move(7)
    assert match.moves == [] and any("Not allowed" in t for t, _ in h.app.toasts)


def test_watch_two_bots_then_replay(h):
    match = Match("race", None, 4, [Seat("ai", "A", "easy"), Seat("ai", "B", "easy")])
    start_match(h.app, match)
    play = h.top
    play.watch_speed = 8.0
    h.wait_until(lambda: match.over, timeout=20)
    h.wait_until(lambda: isinstance(h.top, ResultScene))
    h.settle()
    h.click_button("Watch replay")
    player = h.top
    assert isinstance(player, ReplayPlayerScene)
    h.key(pygame.K_END)
    assert player.ply == len(match.moves)
    h.key(pygame.K_LEFT)
    assert player.ply == len(match.moves) - 1
    h.key(pygame.K_HOME)
    assert player.ply == 0 and player.board.view["pile"] == 7


def test_the_final_position_shows_for_a_moment_on_the_arcades_clock(h):
    """The pause before the result card is read on the app's clock, which the harness moves
    only with its frames: no wall-clock wait, and none is needed."""
    from client.scenes.play import RESULT_DELAY
    start_match(h.app, Match("race", None, 1, [Seat("human", "A"), Seat("human", "B")]))
    play = h.top
    play.match.resign(0)
    h.frame(dt=0)  # the end is seen
    h.clock.t += RESULT_DELAY * 0.9
    h.frame(dt=0)
    assert h.top is play  # the board still shows
    h.clock.t += RESULT_DELAY * 0.1
    h.frame(dt=0)
    assert isinstance(h.top, ResultScene) and h.top.play is play


def test_hot_seat_has_no_you_play_row_and_player_1_moves_first(h):
    """Between two people at this computer 'You play' means nothing: it is not shown."""
    h.top.open_setup("race")
    h.frame()
    setup = h.top
    setup.first.select([v for v, _ in setup.first.choices].index(1))  # chosen for a bot game
    assert setup.first in setup.visible_rows()
    setup.opponent.select([v for v, _ in setup.opponent.choices].index("human"))
    assert setup.first not in setup.visible_rows()
    assert [s.name for s in setup.seats()] == ["Player 1", "Player 2"]


def test_the_title_sees_a_game_another_arcade_saves_and_ends(h):
    """The title listed the saves folder when it opened and when this arcade saved: a game
    another arcade saved there (or ended) was not offered until the title was opened again."""
    title = h.top
    match = Match("jungle", None, 3, [Seat("human", "Ann"), Seat("human", "Ben")])
    match.play(match.legal_moves()[0])
    path = saves.save(match, saves.autosave_name(match))
    written = path.read_bytes()
    saves.remove(path.stem)
    h.frames(2)

    def offered() -> bool:
        return any(b.label.startswith("Continue") for b in title.buttons.buttons)
    assert not offered()
    path.write_bytes(written)  # the other arcade's save: this arcade's count of saves stays
    h.wait_until(offered)
    assert h.clock.t >= 3.0 - 1 / 60  # it looks now and then, not every frame
    path.unlink()  # the other arcade's game ended
    h.wait_until(lambda: not offered())
