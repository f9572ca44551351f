"""Whole flows a player goes through, driven by keys and clicks through the harness."""

import os
import subprocess
import sys
import threading
from pathlib import Path

import pygame
import pytest

from client.scenes.base import start_match
from client.scenes.dialog import ConfirmScene
from client.scenes.play import PlayScene
from client.scenes.replays import SPEEDS, ReplayBrowserScene, ReplayPlayerScene
from client.scenes.result import ResultScene
from client.scenes.setup import SetupScene
from client.scenes.title import TitleScene
from game import saves
from game.match import Match, Seat
from tests.harness import Harness

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def h(race):
    harness = Harness()
    harness.app.push(TitleScene(harness.app))
    harness.frame()
    yield harness
    harness.close()


def test_the_test_game_goes_menu_setup_play_result_replay(h):
    h.click_button("Race to the last")
    assert isinstance(h.top, SetupScene) and h.top.game_id == "race"
    h.top.opponent.select([v for v, _ in h.top.opponent.choices].index("easy"))
    h.click_button("Start")
    play = h.top
    assert isinstance(play, PlayScene)
    while not play.match.over:
        h.wait_until(lambda: play.match.over or play.table.human_to_move() is not None)
        if not play.match.over:
            h.key(pygame.K_1, "1")
    h.wait_until(lambda: isinstance(h.top, ResultScene))
    h.settle()
    result_line = play.match.result_line()
    moves = list(play.match.moves)
    h.click_button("Menu")
    assert isinstance(h.top, TitleScene)
    h.click_button("Replays")
    browser = h.top
    assert isinstance(browser, ReplayBrowserScene)
    h.wait_until(lambda: not browser.loading and browser.entries)
    top, bottom = browser.describe(browser.entries[0])
    assert top.startswith("Race to the last") and "race" not in bottom
    h.key(pygame.K_RETURN)
    h.wait_until(lambda: isinstance(h.top, ReplayPlayerScene))  # read off the loop
    player = h.top
    assert player.match.moves == moves
    for _ in range(3):
        h.key(pygame.K_PLUS, "+")  # 8x
    h.click_button("Play")
    h.wait_until(lambda: not player.playing, timeout=30)
    assert player.ply == len(moves)
    assert player.match.result_line() == result_line
    assert player.match.rules.outcome(player.match.states[player.ply]) is not None


def test_no_shared_module_names_the_test_game():
    for folder in ("game", "ai", "players", "net", "bench"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for name in ("'race'", '"race"', "fakes.race", "fakes import race"):
                assert name not in text, f"{path} names the test game"


def test_a_resigned_game_shows_the_real_score_with_side_names(h):
    match = Match("race", {"pile": 9}, 3, [Seat("human", "Ann"), Seat("ai", "Bot", "easy")])
    start_match(h.app, match)
    play = h.top
    h.key(pygame.K_2, "2")
    h.wait_until(lambda: len(match.moves) == 2)
    h.click_button("Resign")
    h.key(pygame.K_y, "y")
    h.wait_until(lambda: isinstance(h.top, ResultScene))
    h.settle()
    card = h.top
    assert play.match.score() == (2, 3)
    assert card.score_rows == [("Ann (first)", "2"), ("Bot (second)", "3")]


def _leave(h, play) -> None:
    play.leave_game()
    h.frame()
    assert isinstance(h.top, TitleScene)
    # Its saves are written (a late one would make this game's file the newest: seen under load)
    h.wait_until(lambda: not any(t.name == "save" for t in threading.enumerate()))


@pytest.mark.parametrize("away", ["Look at the board", "Watch replay"])
def test_the_result_card_comes_back_from_the_finished_board(h, away):
    """Back from a look at the board or a replay, the finished board offers its result card
    again (with Rematch, Replay and Review), and only once the game is over."""
    match = Match("race", None, 2, [Seat("human", "Ann"), Seat("ai", "Bot", "easy")])
    start_match(h.app, match)
    play = h.app.find(PlayScene)
    assert not [b for b in play.panel_buttons.buttons if b.label == "Result"]
    while not match.over:
        h.wait_until(lambda: match.over or play.table.human_to_move() is not None)
        if not match.over:
            h.key(pygame.K_1, "1")
    h.wait_until(lambda: isinstance(h.top, ResultScene))
    h.settle()
    h.click_button(away)
    if h.top is not play:
        h.key(pygame.K_ESCAPE)
    h.wait_until(lambda: h.top is play)
    h.frames(3)
    assert h.top is play  # no second card of its own
    h.click_button("Result")
    assert isinstance(h.top, ResultScene) and h.top.play is play


def test_the_title_offers_continue_for_a_game_whose_save_lands_after_it_opened(h):
    """Leaving a game says "choose Continue on the title": a background save that is written
    only after the title came up still brings Continue (it was missing until the title was
    opened again), and a game whose save is removed takes it away."""
    assert isinstance(h.top, TitleScene) and not saves.list_autosaves()
    assert not [b for b in h.find_buttons() if b.label.startswith("Continue")]
    match = Match("planes", None, 5, [Seat("human", "Ann"), Seat("human", "Ben")])
    name = saves.autosave_name(match)
    saves.save_in_background(match, name).join()
    h.frame()
    assert [b for b in h.find_buttons() if b.label.startswith("Continue")]
    saves.remove(name)
    h.frame()
    assert not [b for b in h.find_buttons() if b.label.startswith("Continue")]


def test_every_unfinished_game_keeps_its_own_autosave_and_continue_lists_them(h):
    planes = Match("planes", None, 5, [Seat("human", "Ann"), Seat("human", "Ben")])
    start_match(h.app, planes)
    _leave(h, h.app.find(PlayScene))
    solo = Match("g2048", None, 3, [Seat("human", "Ann")])
    start_match(h.app, solo)
    play = h.app.find(PlayScene)
    play.try_move(solo.legal_moves()[0])
    _leave(h, play)
    h.wait_until(lambda: len(saves.list_autosaves()) == 2)
    # A named save, loaded and left, is offered by Continue too.
    named = Match("race", None, 2, [Seat("human", "Ann"), Seat("ai", "Bot", "easy")])
    named.play(1)
    named.play(2)  # the person to move: the bot has nothing to answer
    saves.save(named, "my race")
    h.top.enter()
    h.click_button("Load")
    h.wait_until(lambda: not h.top.loading)
    h.key(pygame.K_RETURN)
    _leave(h, h.app.find(PlayScene))
    h.wait_until(lambda: len(saves.list_autosaves()) == 3)
    # A 2048 game played to the end removes its own autosave only.
    done = Match("g2048", None, 4, [Seat("human", "Ann")])
    start_match(h.app, done)
    play = h.app.find(PlayScene)
    while not done.over:
        done.play(done.legal_moves()[0])
    h.wait_until(lambda: isinstance(h.top, ResultScene))
    h.settle()
    h.click_button("Menu")
    h.top.enter()
    h.click_button("Continue (3 games)")
    h.wait_until(lambda: not h.top.loading)
    listed = [h.top.describe(e) for e in h.top.entries]
    assert [top for top, _ in listed] == [
        "Race to the last: Ann (first) vs Easy bot (second)".replace("Easy bot", "Bot"),
        "2048: Ann", "炸飞机 Bomb the Planes: Ann (red) vs Ben (blue)"]
    assert [bottom.split(" · ")[0] for _, bottom in listed] == ["Move 3", "Move 2", "Move 1"]
    h.key(pygame.K_DOWN)
    h.key(pygame.K_DOWN)
    h.key(pygame.K_RETURN)
    resumed = h.app.find(PlayScene)
    assert resumed.match.game_id == "planes" and resumed.save_name == saves.autosave_name(planes)


@pytest.mark.parametrize("key", [pygame.K_ESCAPE, pygame.K_q])
def test_esc_and_q_on_the_title_ask_before_quitting(h, key):
    h.key(key, pygame.key.name(key))
    assert h.app.running and isinstance(h.top, ConfirmScene)
    h.key(pygame.K_n, "n")
    assert h.app.running and isinstance(h.top, TitleScene)
    h.key(key, pygame.key.name(key))
    h.key(pygame.K_y, "y")
    assert not h.app.running


@pytest.mark.parametrize("display", [None, ":99"])
def test_without_a_display_the_arcade_says_so_in_one_line_and_exits(tmp_path, display):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env["PAPER_ARCADE_HOME"] = str(tmp_path)
    if display:  # set, but no X server behind it
        free = next(n for n in range(150, 400) if not Path(f"/tmp/.X11-unix/X{n}").exists()
                    and not Path(f"/tmp/.X{n}-lock").exists())
        env["DISPLAY"] = f":{free}"
    run = subprocess.run([sys.executable, str(ROOT / "main.py")], env=env, capture_output=True,
                         text=True, timeout=30)
    assert run.returncode != 0 and run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "no display" in lines[0] and "--headless" in lines[0]


def test_the_play_screen_has_a_mute_button(h):
    from game import settings
    match = Match("race", None, 2, [Seat("human", "Ann"), Seat("ai", "Bot", "easy")])
    start_match(h.app, match)
    h.frame()
    assert settings.get("sound") is True
    h.click_button("♪ on")
    assert settings.get("sound") is False and not h.app.sound.enabled
    h.click_button("♪ off")
    assert settings.get("sound") is True and h.app.sound.enabled
    assert match.moves == []  # the click was no move


def test_rules_pages_set_their_headings_apart_from_the_text(h):
    from game import registry
    for game_id in registry.available():
        page = h.app.push("rules", game_id=game_id)
        h.frame()
        headings = [text for text, heading in page.lines if heading]
        body = [text for text, heading in page.lines if not heading and text]
        assert headings and body, game_id
        assert all(len(text.split()) <= 6 for text in headings), (game_id, headings)
        h.app.pop()


def test_the_play_panel_keeps_a_live_move_list_in_the_games_notation(h):
    match = Match("dots", None, 2, [Seat("human", "Ann"), Seat("human", "Ben")])
    start_match(h.app, match)
    h.frame()
    play = h.top
    for _ in range(3):
        assert play.try_move(match.legal_moves()[0])
    h.frame()
    listed = play.move_list()
    assert len(listed) == 3 and listed[0].startswith("1. red ") and "-" in listed[0]
    assert play.moves_rect.height >= 2 * 19
    play._undo_now()
    assert len(play.move_list()) == 2
    hidden = Match("race", None, 2, [Seat("human", "Ann"), Seat("human", "Ben")])
    start_match(h.app, hidden)
    h.frame()
    assert h.app.find(PlayScene).move_list() == []  # hidden hot-seat: no list to peek at


def test_two_new_lan_players_are_not_both_called_player(h, monkeypatch):
    import socket as socket_module

    from client.scenes import lobby
    from game import settings
    from players.base import Controller, HumanController
    monkeypatch.setattr(socket_module, "gethostname", lambda: "kitchen.lan")
    assert lobby.lan_name() == "Player (kitchen)"
    from game import i18n
    i18n.set_language("zh_CN")
    try:  # in the language's own brackets
        assert lobby.lan_name() == "玩家（kitchen）"
    finally:
        i18n.set_language("en")
    settings.put("player_name", "Ann")
    assert lobby.lan_name() == "Ann"

    from tests.fakes.remote import SilentRemote

    match = Match("race", None, 2, [Seat("human", "Player"), Seat("remote", "Player")])
    play = PlayScene(h.app, match, [HumanController(), Controller()],
                     session=SilentRemote(match))
    assert [play.panel_name(s) for s in (0, 1)] == ["Player (you)", "Player"]
    play.board.close()


def test_a_long_file_list_shows_a_scrollbar_and_home_end_and_page_keys_move_through_it(h):
    """The lists gave no sign that rows lay below the last shown, and End, Home and the page
    keys did nothing: 30 games in progress read as the 8 that fit."""
    from client.ui import theme
    from client.ui.widgets import scroll_thumb
    for seed in range(30):
        match = Match("g2048", None, seed, [Seat("human", "Ann")])
        match.play(match.legal_moves()[0])
        saves.save(match, saves.autosave_name(match) + f" {seed}")
    h.app.push("continue")
    scene = h.top
    h.wait_until(lambda: not scene.loading and len(scene.entries) == 30)
    h.frame()
    shown = scene.visible
    assert 1 < shown < 30
    track = scene.scroll_track()

    def thumb() -> pygame.Rect:
        found = scroll_thumb(track, scene.scroll, shown, 30)
        assert found is not None and track.contains(found)
        assert h.app.screen.get_at(found.center)[:3] == theme.INK_SOFT  # drawn where it sits
        return found

    assert thumb().top == track.top and thumb().height < track.height
    h.key(pygame.K_END)
    h.frame()
    assert scene.selected == 29 and scene.rows[-1][0] == 29 and thumb().bottom == track.bottom
    h.key(pygame.K_HOME)
    h.key(pygame.K_PAGEDOWN)
    h.frame()
    assert scene.selected == shown and scene.rows[0][0] > 0
    h.key(pygame.K_PAGEUP)
    h.frame()
    assert scene.selected == 0 and scene.rows[0][0] == 0


@pytest.mark.parametrize("name, says", [("loads", "Ctrl+S"), ("continue", "before its end"),
                                        ("replays", "played to its end")])
@pytest.mark.parametrize("size", [(800, 560), (1280, 800)])
def test_an_empty_file_list_says_how_it_fills(name, says, size, monkeypatch):
    """An empty Load list said only "Nothing here yet.": a player who never saved learnt not
    how to; each list says what it keeps, in lines inside its panel."""
    from client.ui import theme
    harness = Harness(size)
    try:
        scene = harness.app.push(name)
        harness.wait_until(lambda: not scene.loading)
        assert not scene.entries
        shown: list[tuple[str, pygame.Rect]] = []
        real = theme.text
        monkeypatch.setattr(theme, "text", lambda surface, s, pos, *a, **k: shown.append(
            (s, real(surface, s, pos, *a, **k))) or shown[-1][1])
        harness.frame()
        lines = [(s, r) for s, r in shown if scene.list_top <= r.top < scene.box.bottom]
        said = " ".join(s for s, _r in lines)
        assert says in said and "Nothing here" not in said
        assert all(scene.box.contains(r) for _s, r in lines)
    finally:
        harness.close()


def test_an_offer_over_the_lan_stays_in_the_panel_until_it_is_answered(h):
    """A draw offered said "Draw offered" in a toast that faded in five seconds, and then
    nothing showed that an answer was still to come. The panel says so while it is out."""
    from players.base import Controller, HumanController
    from tests.fakes.remote import SilentRemote
    match = Match("ataxx", None, 2, [Seat("human", "Ann"), Seat("remote", "Ben")])
    match.play(match.legal_moves()[0])
    match.play(match.legal_moves()[0])
    remote = SilentRemote(match)
    play = PlayScene(h.app, match, [HumanController(), Controller()], session=remote)
    h.app.push(play)
    h.frame()
    waiting = "Draw offered: waiting for Ben (o) to answer"
    assert waiting not in play.status_lines
    h.click_button("Offer a draw")
    h.frames(400)  # the notice has long faded
    assert waiting in " ".join(play.status_lines)
    h.click_button("Undo")
    h.frame()
    assert "Takeback asked: waiting for Ben (o) to answer" in " ".join(play.status_lines)
    buttons = {b.label: b for b in play.panel_buttons.buttons}
    assert not buttons["Offer a draw"].enabled and not buttons["Undo (U)"].enabled  # out
    remote.offers.clear()  # answered
    h.frame()
    assert not any("waiting for" in line for line in play.status_lines)
    buttons = {b.label: b for b in play.panel_buttons.buttons}
    assert buttons["Offer a draw"].enabled and buttons["Undo (U)"].enabled


def test_the_lan_chat_is_kept_and_shown_again_above_the_next_line(h):
    """A chat line showed only as a toast, gone in five seconds with no way to read it again:
    the game keeps both sides' lines, and the chat box shows the last of them, in order,
    inside the card, at the smallest window too."""
    from game.i18n import Text
    from players.base import Controller, HumanController
    from players.events import Event, EventKind
    from tests.fakes.remote import SilentRemote

    class Talking(SilentRemote):
        def __init__(self, match):
            super().__init__(match)
            self.heard: list = []

        def events(self) -> list:
            heard, self.heard = self.heard, []
            return heard

        def chat(self, text: str) -> None:
            self.heard.append(Event(EventKind.CHAT, text=Text("You: {text}", {"text": text})))

    match = Match("ataxx", None, 2, [Seat("human", "Ann"), Seat("remote", "Ben")])
    remote = Talking(match)
    play = PlayScene(h.app, match, [HumanController(), Controller()], session=remote)
    h.app.push(play)
    h.frame()
    for n in range(9):
        remote.heard.append(Event(EventKind.CHAT, text=Text("{name}: {text}", {
            "name": "Ben", "text": f"line {n}"})))
        h.frame()
    play.chat()
    h.frame()
    h.key(pygame.K_h, "h")
    h.key(pygame.K_i, "i")
    h.key(pygame.K_RETURN)
    h.frame()
    assert [t.english() for t in play.table.chat_log][-2:] == ["Ben: line 8", "You: hi"]
    for size in ((800, 560), (1280, 800)):
        play.chat()
        prompt = h.top
        prompt.layout(size)
        assert prompt.shown[-2:] == ["Ben: line 8", "You: hi"]
        assert len(prompt.shown) == 6 and prompt.shown[0] == "Ben: line 4"
        top = prompt.box.y + 56
        assert prompt.box.contains(pygame.Rect(prompt.box.x + 20, top, 10, 22 * 6))
        assert prompt.field.rect.top >= top + 22 * 6
        h.app.pop()


@pytest.mark.parametrize("size", [(800, 560), (1280, 800)])
def test_the_replay_players_buttons_keep_their_widths_whatever_the_speed_says(h, size):
    """Its speed button was laid out for the word "Speed" when the player opened, and for
    "1×" after a return from the review: the row of buttons changed under the mouse."""
    match = Match("ataxx", None, 2, [Seat("human", "Ann"), Seat("human", "Ben")])
    for _ in range(4):
        match.play(match.legal_moves()[0])
    scene = ReplayPlayerScene(h.app, match)
    h.app.push(scene)
    scene.layout(size)
    h.frame()
    first = [b.rect.copy() for b in scene.buttons.buttons]
    for _ in range(len(SPEEDS)):
        scene.faster()
        scene.update_labels()
        scene.layout(size)
        assert [b.rect for b in scene.buttons.buttons] == first


def test_t_opens_the_lan_chat_and_its_letter_is_not_typed_into_it(h):
    """"Chat (T)" said T, and T did nothing: the panel took only U, P and S. It opens the chat
    box now, empty: the t that SDL types after the key goes to nobody."""
    from client.scenes.dialog import PromptScene
    from players.base import Controller, HumanController
    from tests.fakes.remote import SilentRemote
    match = Match("ataxx", None, 2, [Seat("human", "Ann"), Seat("remote", "Ben")])
    play = PlayScene(h.app, match, [HumanController(), Controller()],
                     session=SilentRemote(match))
    h.app.push(play)
    h.frame()
    h.key(pygame.K_t, "t")
    assert isinstance(h.top, PromptScene) and h.top.field.value == ""
    h.key(pygame.K_h, "h")
    h.key(pygame.K_i, "i")
    assert h.top.field.value == "hi"


@pytest.mark.parametrize("size", [(800, 560), (1400, 900)])
def test_the_live_move_list_fills_its_room_before_it_drops_the_first_moves(h, size, monkeypatch):
    """It dropped its first lines with a line or two of room still empty under the last."""
    from client.ui import theme
    from players.base import HumanController
    match = Match("dots", {"rows": 5, "cols": 5}, 2, [Seat("human", "Ann"), Seat("human", "Ben")])
    harness = Harness(size)
    try:
        play = PlayScene(harness.app, match, [HumanController(), HumanController()])
        harness.app.push(play)
        harness.frame()
        drawn: list[tuple[str, pygame.Rect]] = []
        real = theme.text
        monkeypatch.setattr(theme, "text", lambda surface, s, pos, *a, **k: drawn.append(
            (s, real(surface, s, pos, *a, **k))) or drawn[-1][1])
        for n in range(55):
            match.play(match.legal_moves()[0])
            drawn.clear()
            play._draw_move_list(harness.app.screen)
            box = play.moves_rect
            lines = [r for s, r in drawn]
            assert all(box.top <= r.top and r.bottom <= box.bottom + 2 for r in lines)
            room = (box.height - 6) // play.move_row
            assert len(lines) == min(n + 1, room)
    finally:
        harness.close()


@pytest.mark.parametrize("size", [(800, 560), (1600, 1000)])
def test_the_arrows_cross_between_the_titles_two_columns(size):
    """The title's footer says arrows and Enter, and its menu stands in two columns: Right did
    nothing, so a keyboard reached Continue only by Down past every game."""
    match = Match("ataxx", None, 5, [Seat("human", "Ann"), Seat("ai", "Bot", "easy")])
    match.play(match.rules.move_to_wire(match.legal_moves()[0]))
    saves.save(match, saves.autosave_name(match))
    harness = Harness(size)
    try:
        title = TitleScene(harness.app)
        harness.app.push(title)
        harness.frame()
        group = title.buttons
        focused = lambda: group.buttons[group.focus]  # noqa: E731
        assert focused() is title.game_buttons[0]
        harness.key(pygame.K_RIGHT)
        assert focused().label == "Continue"  # the other column's first button, level with it
        harness.key(pygame.K_RIGHT)  # no column further: the focus stays
        assert focused().label == "Continue"
        harness.key(pygame.K_DOWN)
        harness.key(pygame.K_LEFT)
        assert focused() is title.game_buttons[1]  # back across, on the nearest row
        harness.key(pygame.K_RIGHT)
        harness.key(pygame.K_RETURN)
        assert harness.app.top is not title  # Watch bots play, the button focused, opened
    finally:
        harness.close()


def test_a_click_or_key_as_the_result_card_comes_up_is_no_choice_on_it(h):
    """The card comes up a moment after the last move, under a player still clicking the
    board: a click that landed on Rematch started a new game nobody asked for."""
    from client.scenes.result import SETTLE_SECONDS
    match = Match("race", None, 2, [Seat("human", "Ann"), Seat("ai", "Bot", "easy")])
    start_match(h.app, match)
    play = h.app.find(PlayScene)
    while not match.over:
        h.wait_until(lambda: match.over or play.table.human_to_move() is not None)
        if not match.over:
            h.key(pygame.K_1, "1")
    h.wait_until(lambda: isinstance(h.top, ResultScene))
    card = h.top
    rematch = next(b for b in card.buttons.buttons if b.label.startswith("Rematch"))
    h.click(rematch.rect.center)
    h.key(pygame.K_RETURN)
    assert h.top is card and h.app.find(PlayScene) is play
    h.frames(int(SETTLE_SECONDS * 60) + 2)
    h.click(rematch.rect.center)
    again = h.app.find(PlayScene)
    assert isinstance(h.top, PlayScene) and again is not play  # now it is a choice


@pytest.mark.parametrize("size", [(800, 560), (1600, 1000)])
def test_a_questions_whole_detail_shows_above_its_buttons(size):
    """"The other player is gone" cut its English detail after two lines ("…or claim the game
    once they" at every window size, a real-window pass): the card grows for a longer one."""
    from client.ui import theme
    line_height = 24  # as a question's detail is drawn
    detail = ("Connection lost: an error on the network. The game is saved. Wait for them to "
              "come back, or claim the game once they have been gone a minute.")
    ui = Harness(size)
    try:
        ui.app.push(ConfirmScene(ui.app, "The other player is gone", lambda: None,
                                 detail=detail))
        ui.frame()
        box, top, s = ui.top.box, min(b.rect.top for b in ui.top.buttons.buttons), ui.top.s
        lines = theme.wrap(detail, box.width - s(40), s(18))
        assert len(lines) >= 2 and " ".join(lines).split() == detail.split()
        assert box.y + s(80) + s(line_height) * len(lines) <= top  # every line, above buttons
    finally:
        ui.close()
