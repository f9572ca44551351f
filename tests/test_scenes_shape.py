"""The client's shape: scenes opened by name, a close hook that runs once, layout outside draw,
the minimum window size, and each game's own settings and tagline."""

import ast
import socket
from pathlib import Path

import pygame
import pytest

from client.app import MIN_SIZE, App
from client.boards.base import game_settings
from client.scenes.base import Scene, start_match
from client.scenes.lobby import LobbyScene
from client.scenes.play import PlayScene
from client.scenes.settings_page import SettingsScene
from client.scenes.title import TitleScene
from game import registry, replay, settings, stats, storage
from game.match import Match, Seat
from tests.fakes.ports import spare_port
from tests.harness import Harness

SCENES_DIR = Path(__file__).resolve().parent.parent / "game" / "scenes"


@pytest.fixture
def h():
    harness = Harness()
    harness.app.push("title")
    harness.frame()
    yield harness
    harness.close()


class Recorder(Scene):
    """A scene that writes down its life cycle."""

    def __init__(self, app, name: str, log: list[str]):
        super().__init__(app)
        self.name, self.log = name, log

    def enter(self) -> None:
        self.log.append(f"enter {self.name}")

    def leave(self) -> None:
        self.log.append(f"leave {self.name}")

    def close(self) -> None:
        self.log.append(f"close {self.name}")


def test_no_scene_module_imports_another_scene():
    allowed = {"client.scenes.base"}
    for path in SCENES_DIR.glob("*.py"):
        if path.name in ("table.py", "__init__.py"):
            continue  # the table is the one place that imports every scene
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                if name.startswith("client.scenes") and name not in allowed \
                        and name.rpartition(".")[0] not in allowed:
                    raise AssertionError(f"{path.name} imports {name}")


def test_close_runs_once_when_a_scene_leaves_the_stack_for_good():
    app = App()
    try:
        log: list[str] = []
        a, b, c, d = (Recorder(app, n, log) for n in "abcd")
        app.push(a)
        app.push(b)
        assert log == ["enter a", "leave a", "enter b"]  # covered, not closed
        app.pop()
        assert log[3:] == ["leave b", "close b", "enter a"]
        app.replace(c)
        assert log[6:] == ["leave a", "close a", "enter c"]
        app.push(d)
        log.clear()
        app.quit()
        assert log == ["leave d", "close d", "leave c", "close c"] and not app.stack
        assert [s.closed for s in (a, b, c, d)] == [True] * 4
    finally:
        pygame.display.quit()


def test_pop_to_closes_every_scene_it_passes(h):
    log: list[str] = []
    h.app.push(Recorder(h.app, "a", log))
    h.app.push(Recorder(h.app, "b", log))
    log.clear()
    h.app.pop_to("title")
    assert log == ["leave b", "close b", "leave a", "close a"]
    assert isinstance(h.top, TitleScene)


def _udp_port_free(port: int) -> bool:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.bind(("", port))  # no SO_REUSEADDR/SO_REUSEPORT: fails while the lobby listens
    except OSError:
        return False
    finally:
        s.close()
    return True


def test_lobby_stops_listening_after_lobby_game_menu(h, race):
    port = spare_port()
    lobby = LobbyScene(h.app, listen_port=port)
    h.app.push(lobby)
    # Wait on the list's own word: probing by binding the port could win the race to it, and
    # the lobby would find its port taken (CI stop 51).
    assert lobby.hosts.settled.wait(10) and lobby.hosts.error is None
    assert not _udp_port_free(port)  # the lobby listens for hosts
    start_match(h.app, Match(race, None, 3, [Seat("human", "A"), Seat("ai", "B", "easy")]))
    play = h.top
    assert isinstance(play, PlayScene)
    play.leave_game()  # Menu: back to the title, past the lobby
    assert isinstance(h.top, TitleScene) and play.closed
    assert _udp_port_free(port), "the lobby's UDP listener is still alive"  # at once: it
    # waited up to its half-second receive timeout, and once, under load, over 3 s


def test_scenes_open_each_other_by_name(h, race):
    h.top.open_setup(race)
    assert type(h.top).__name__ == "SetupScene"
    h.click_button("Rules")
    assert type(h.top).__name__ == "RulesScene" and h.top.info.id == race
    h.key(pygame.K_ESCAPE)
    h.key(pygame.K_ESCAPE)
    assert isinstance(h.top, TitleScene)
    assert h.app.find("title") is h.top and h.app.find("play") is None


def test_draw_only_draws_and_layout_follows_the_window_size(h):
    title = h.top
    first = title.game_buttons[0]
    first.rect = pygame.Rect(1, 2, 3, 4)
    title.draw(h.app.screen)
    assert first.rect == pygame.Rect(1, 2, 3, 4)  # drawing placed nothing
    h.app.screen = pygame.display.set_mode((1600, 1000), pygame.RESIZABLE)
    h.frame()
    assert first.rect.width > 3 and first.rect.right <= 1600 // 2
    assert title.columns[1].right > 1100  # laid out for the new, wider window
    h.app.push("settings")
    h.frame()
    page = h.top
    assert all(r.rect.right <= 1600 - 40 for r in page.rows)
    assert page.rows[-1].rect.bottom <= 1000


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # Window.from_display_module
def test_the_window_is_never_smaller_than_the_minimum():
    app = App((300, 200))
    try:
        assert app.screen.get_width() >= MIN_SIZE[0] and app.screen.get_height() >= MIN_SIZE[1]
        window = pygame.Window.from_display_module()
        assert tuple(window.minimum_size) == MIN_SIZE
        window.size = (320, 240)
        assert tuple(window.size) == MIN_SIZE
    finally:
        pygame.display.quit()


def test_a_window_shrunk_below_the_minimum_from_outside_grows_back(h, monkeypatch):
    class Window:  # what the X server did without a window manager: 600x400
        size = (600, 400)
        minimum_size = MIN_SIZE

    fake = Window()
    from client import app as app_module
    monkeypatch.setattr(app_module, "_window", lambda: fake, raising=False)
    h.app.step([pygame.event.Event(pygame.WINDOWSIZECHANGED, x=600, y=400)], 0.016)
    assert tuple(fake.size) == MIN_SIZE


def test_the_title_shows_each_games_own_tagline(h):
    shown = [text for text, _ in h.top.taglines]
    assert shown == [registry.get(g).rules.TAGLINE for g in registry.available()]
    assert all(shown)


@pytest.mark.parametrize("size", [(1100, 720), (1280, 800), (1500, 950), (1920, 1200)])
def test_no_focus_ring_on_the_title_touches_a_tagline(h, size):
    """Found in a real window at 1500x950: the ring round a focused game ran over the
    tagline under it (2 px below the button, the ring reaching 6)."""
    from client.ui import paper, theme
    title = h.top
    title.layout(size)
    assert title.taglines  # they fit at these sizes
    font = theme.font(title.tagline_size)
    words = [pygame.Rect(at, font.size(text)) for text, at in title.taglines]
    for button in title.game_buttons:
        ring = button.rect.inflate(2 * paper.FOCUS_OUTSET, 2 * paper.FOCUS_OUTSET)
        assert ring.collidelist(words) == -1, (button.label, ring, words)


def test_the_title_taglines_grow_with_the_window_as_its_buttons_do(h):
    """At 1500x950 the taglines stayed at the smallest window's size beside buttons half as
    tall again: they looked small."""
    from client.scenes.title import TAGLINE_SIZE
    from client.ui import theme
    title = h.top
    sizes = {}
    for size in ((800, 560), (1100, 720), (1500, 950), (1920, 1200)):
        title.layout(size)
        button = title.game_buttons[0].rect.height
        sizes[size] = title.tagline_size
        assert title.tagline_size >= TAGLINE_SIZE
        for text, at in title.taglines:  # each fits its column
            assert at[0] + theme.font(title.tagline_size).size(text)[0] <= title.columns[0].right
        assert theme.font(title.tagline_size).get_height() < button
    assert sizes[(1500, 950)] > sizes[(1100, 720)] == TAGLINE_SIZE


def test_game_settings_come_from_the_boards_and_old_files_stay_readable():
    game_settings()  # the boards declare their settings (alone, this test imported none)
    storage.write_file(settings.path(), "settings", settings.FORMAT,
                       {"banqi_glyphs": "letters", "g2048_ai_ms": 200, "g2048_best": 1234,
                        "volume": 0.4})
    settings.reset_for_tests()
    assert settings.get("banqi_glyphs") == "letters" and settings.get("g2048_ai_ms") == 200
    assert settings.get("g2048_best") == 1234 and settings.get("volume") == 0.4
    keys = {s.key for s in game_settings()}
    assert {"banqi_glyphs", "g2048_ai_ms", "g2048_best"} <= keys
    assert not keys & set(settings.DEFAULTS)  # the arcade's own list names no game's setting
    for s in game_settings():
        assert any(s.key.startswith(g + "_") for g in registry.available()), s.key


def test_the_settings_page_shows_each_games_rows_and_saves_a_choice(h):
    h.app.push(SettingsScene(h.app))
    h.frame()
    page = h.top
    labels = [r.label for r in page.rows]
    for s in game_settings():
        assert (s.label in labels) == bool(s.choices), s.key
    row = page.rows[labels.index("Banqi pieces")]
    row.select([v for v, _ in row.choices].index("letters"))
    assert settings.get("banqi_glyphs") == "letters"


def _lobby_at(size: tuple[int, int]) -> tuple[list[pygame.Rect], tuple[pygame.Rect, ...]]:
    """The LAN lobby's controls (game choice, address field, action buttons) and columns."""
    ui = Harness(size)
    try:
        lobby = LobbyScene(ui.app, listen_port=spare_port())
        ui.app.push(lobby)
        ui.frame()
        controls = [lobby.game_row.rect, lobby.address.rect,
                    *(b.rect for b in lobby.buttons.buttons)]
        return controls, lobby.columns
    finally:
        ui.close()


@pytest.mark.parametrize("size", [(1600, 1000), (1920, 1080), (1280, 1080)])
def test_the_lobby_grows_with_a_tall_window_and_stays_in_its_columns(size):
    """At 1920x1080 the lobby kept its 1280x800 measures: small rows at the top of two tall,
    empty sheets. Its controls now grow with the window's height, inside their columns."""
    small, _ = _lobby_at((1280, 800))
    large, columns = _lobby_at(size)
    assert all(b.height > a.height for a, b in zip(small, large))
    assert all(any(column.contains(rect) for column in columns) for rect in large)
    assert not any(a.colliderect(b) for i, a in enumerate(large) for b in large[i + 1:])


def _text_sizes(draw, where) -> list[int]:
    """The text sizes draw() writes at the places where(pos) picks."""
    from client.ui import theme
    drawn, real = [], theme.text

    def record(surf, words, pos, at, *args, **kwargs):
        if where(pos):
            drawn.append(at)
        return real(surf, words, pos, at, *args, **kwargs)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(theme, "text", record)
        draw()
    return drawn


def _largest_words(scene_name: str, size: tuple[int, int]) -> tuple[int, int]:
    """The largest text size a screen draws below its title, and its game choice's height (a
    list's game filter)."""
    ui = Harness(size)
    try:
        ui.app.push(scene_name)
        ui.frames(3)
        scene = ui.top
        # below the screen's title, which keeps its size
        drawn = _text_sizes(lambda: scene.draw(ui.app.screen), lambda pos: pos[1] > 60)
        choice = scene.game_row if scene_name == "stats" else scene.filter
        return max(drawn), choice.rect.height
    finally:
        ui.close()


@pytest.mark.parametrize("scene_name", ["stats", "replays"])
def test_the_statistics_and_the_replays_grow_with_a_tall_window(scene_name):
    """At 1920x1080 the statistics table and the replays list kept their 1280x800 words,
    small at the top of the sheet; at 800 high and below they are as they were."""
    stats.record("dots", "easy", "won")
    match = Match("dots", None, 1, [Seat("human", "Ann"), Seat("ai", "Bot", "easy")])
    match.resign(0)
    replay.save_replay(match, 1.0)  # each test has a home of its own (conftest)
    small = _largest_words(scene_name, (1280, 800))
    assert _largest_words(scene_name, (1280, 560)) == small
    large = _largest_words(scene_name, (1920, 1080))
    assert large[0] > small[0] and large[1] > small[1]


def _panel_at(size: tuple[int, int], game_id: str) -> tuple[int, list[pygame.Rect], PlayScene]:
    """A hot-seat game on the clock some moves in: the largest text its side panel draws, its
    buttons, and the scene."""
    from players.base import HumanController
    match = Match(game_id, None, 3, [Seat("human", "Ann"), Seat("human", "Ben")])
    for _ in range(6):
        if not match.over and not match.setup_pending():
            match.play(match.legal_moves()[0])
    ui = Harness(size)
    try:
        play = PlayScene(ui.app, match, [HumanController(), HumanController()],
                         time_control="10+5", now=lambda: 0.0)
        ui.app.push(play)
        ui.frames(2)
        drawn = _text_sizes(lambda: play._draw_panel(ui.app.screen, play.side),
                            lambda pos: pos[0] >= play.side.x)
        return max(drawn), [pygame.Rect(b.rect) for b in play.panel_buttons.buttons], play
    finally:
        ui.close()


@pytest.mark.parametrize("game_id", ["ataxx", "dots", "jungle"])
@pytest.mark.parametrize("size", [(1920, 1080), (1280, 1080), (1600, 1000)])
def test_the_play_panel_grows_with_a_tall_window_and_keeps_its_room(game_id, size):
    """At 1920x1080 the side panel kept its 1280x800 words, clock and buttons beside a board
    that grew. They grow with the window's height now; the buttons stay inside the panel, one
    a row, and five moves still show; at 800 high and below the panel is as it was."""
    small, small_buttons, _ = _panel_at((1280, 800), game_id)
    assert _panel_at((1280, 560), game_id)[0] == small
    large, buttons, play = _panel_at(size, game_id)
    assert large > small
    assert all(b.height > a.height for a, b in zip(small_buttons, buttons))
    assert all(play.side.contains(b) for b in buttons)
    assert len({b.x for b in buttons}) == 1  # one column
    assert play.moves_rect.height // play.move_row >= 5
    assert play.top_bar > 58 and play.side.y == play.top_bar


@pytest.mark.parametrize("width", [800, 820, 1000, 1100, 1280, 1600, 1920])
def test_a_taller_window_never_shrinks_the_board(width):
    """The panel grew with the window's height alone, so a tall, narrow window gave it the
    board's room: at 820x1080 the Ataxx board stood 365 px where 820x800 had 526."""
    sides = [min(_panel_at((width, height), "ataxx")[2].board.rect.size)  # a square board
             for height in (800, 900, 1080)]
    assert sides == sorted(sides)


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 1080)])
def test_the_questions_and_the_hand_over_grow_with_a_tall_window(size):
    """A question, a line to type and the hand-over kept their 1280x800 measures, small in the
    middle of a large window; they grow with it now, their buttons inside their cards."""
    from client.scenes.dialog import ConfirmScene, HandoverScene, PromptScene

    def shapes(at: tuple[int, int]) -> list[pygame.Rect]:
        ui = Harness(at)
        try:
            ask = ConfirmScene(ui.app, "Resign?", lambda: None, detail="The game ends. " * 8)
            ui.app.push(ask)
            ui.frames(1)
            rects = [pygame.Rect(ask.box), *(pygame.Rect(b.rect) for b in ask.buttons.buttons)]
            assert all(ask.box.contains(b) for b in rects[1:])
            line = PromptScene(ui.app, "Say", lambda text: None, lines=["hello"] * 3)
            ui.app.push(line)
            ui.frames(1)
            assert line.box.contains(line.field.rect)
            rects += [pygame.Rect(line.box), pygame.Rect(line.field.rect)]
            hand = HandoverScene(ui.app, "Ann", lambda: None)
            ui.app.push(hand)
            ui.frames(1)
            return rects + [pygame.Rect(hand.buttons.buttons[0].rect)]
        finally:
            ui.close()
    small, large = shapes((1280, 800)), shapes(size)
    assert [r.size for r in shapes((1280, 560))] == [r.size for r in small]
    assert all(b.height > a.height for a, b in zip(small, large))


PAGES = [("settings", {}), ("stats", {}), ("replays", {}), ("setup", {"game_id": "banqi"}),
         ("rules", {"game_id": "jungle"})]


def _page_at(size: tuple[int, int], name: str, args: dict) -> tuple[int, list[pygame.Rect],
                                                                     pygame.Rect]:
    """A whole-window page: its title's text size, its footer's buttons and its sheet."""
    ui = Harness(size)
    try:
        ui.app.push(name, **args)
        ui.frames(2)
        page = ui.top
        sizes = _text_sizes(lambda: page.draw(ui.app.screen), lambda pos: pos[1] < page.box.y)
        return max(sizes), [pygame.Rect(b.rect) for b in page.footer.buttons], pygame.Rect(page.box)
    finally:
        ui.close()


@pytest.mark.parametrize("name, args", PAGES)
def test_a_pages_title_and_buttons_grow_with_a_tall_window_and_stay_in_it(name, args):
    """Settings, statistics, the replays, a new game and the rules kept a 34 px title and
    48 px buttons on a 1920x1080 window; they grow with its height now, the buttons in a row
    under the sheet and inside the window, however narrow; at 800 high as they were."""
    title, buttons, _ = _page_at((1280, 800), name, args)
    assert _page_at((1280, 560), name, args)[0] == title
    for size in ((1920, 1080), (800, 1080)):
        large, row, sheet = _page_at(size, name, args)
        assert large > title
        assert all(b.height > a.height for a, b in zip(buttons, row))
        window = pygame.Rect((0, 0), size)
        assert all(window.contains(b) and b.top >= sheet.bottom for b in row)
        assert not any(a.colliderect(b) for i, a in enumerate(row) for b in row[i + 1:])
