"""The flows a player meets (issue 29, 3-14): finality, pace, watching, setup, notation."""

from __future__ import annotations

import random
from typing import Any

import pygame
import pytest

from client.scenes.play import PlayScene
from client.scenes.result import ResultScene
from game.match import Match, Seat
from players.base import Controller, Decision, HumanController
from players.table import BOT_PACE, Table
from tests.harness import Harness


class Instant(Controller):
    """A seat that answers at once with its first legal move (never thinks)."""

    def __init__(self) -> None:
        self.asked: list[int] = []
        self.move: Any = None

    def request(self, match: Match, seat: int) -> None:
        self.asked.append(len(match.moves))
        self.move = match.legal_moves()[0]

    def poll(self) -> Decision | None:
        return Decision(self.move) if self.move is not None else None

    def cancel(self) -> None:
        self.move = None


def vs_instant(game: str = "ataxx", options: dict | None = None) -> tuple[Table, list[float]]:
    now = [10.0]
    match = Match(game, options, 3, [Seat("human", "Ann"), Seat("ai", "Bot", "easy")])
    table = Table(match, [HumanController(), Instant()], records=False, now=lambda: now[0],
                  io=lambda work: work())
    return table, now


# --- 12: pace
def test_a_bots_answer_lands_only_after_the_persons_move_has_shown_for_a_while():
    table, now = vs_instant()
    m = table.match
    assert table.play(m.legal_moves()[0]) is None
    table.tick()
    assert len(m.moves) == 1  # decided at once, but not shown yet
    now[0] += BOT_PACE / 2
    table.tick()
    assert len(m.moves) == 1
    now[0] += BOT_PACE
    table.tick(busy=True)  # the person's move is still being drawn
    assert len(m.moves) == 1
    table.tick()
    assert len(m.moves) == 2 and table.human_to_move() == 0


def test_your_move_shows_only_once_the_bots_move_has_landed(h):
    now = [10.0]
    match = Match("ataxx", None, 3, [Seat("human", "Ann"), Seat("ai", "Bot", "easy")])
    play = PlayScene(h.app, match, [HumanController(), Instant()], now=lambda: now[0])
    h.app.push(play)
    h.frame()
    assert play.try_move(match.legal_moves()[0])
    seen = []
    for _ in range(120):
        now[0] += 1 / 60
        h.frame()
        seen.append((len(match.moves), play.board.busy(), play.status_text()))
    assert any(n == 2 and busy for n, busy, _ in seen), "the bot's move is animated"
    assert all(text != "Your move" for n, busy, text in seen if busy)
    assert seen[-1] == (2, False, "Your move")
    first_answer = next(i for i, (n, _, _) in enumerate(seen) if n == 2)
    assert first_answer >= BOT_PACE * 60 - 2


# --- 9: watch mode's S key
def test_watching_bots_p_pauses_and_s_plays_one_move(h):
    now = [10.0]
    match = Match("ataxx", None, 3, [Seat("ai", "Bot A", "easy"), Seat("ai", "Bot B", "easy")])
    play = PlayScene(h.app, match, [Instant(), Instant()], now=lambda: now[0])
    h.app.push(play)
    h.frame()
    h.key(pygame.K_p, "p")
    assert play.table.paused
    moves = len(match.moves)
    for _ in range(30):
        now[0] += 0.5
        h.frame()
    assert len(match.moves) == moves  # paused: nothing moves
    h.key(pygame.K_s, "s")
    for _ in range(5):
        h.frame()
    assert len(match.moves) == moves + 1
    for _ in range(30):
        now[0] += 0.5
        h.frame()
    assert len(match.moves) == moves + 1  # one move, and still paused


# --- 3: a finished game is final
def test_a_finished_game_is_final_its_stats_and_replay_are_written_once(monkeypatch):
    from game import stats
    recorded, written = [], []
    monkeypatch.setattr(stats, "record_in_background", lambda *entry: recorded.append(entry))
    now = [10.0]
    match = Match("ataxx", None, 3, [Seat("human", "Ann"), Seat("ai", "Bot", "easy")])
    table = Table(match, [HumanController(), Instant()], now=lambda: now[0],
                  io=lambda work: written.append(work))
    assert table.play(match.legal_moves()[0]) is None
    table.resign()
    for _ in range(3):
        now[0] += 1.0
        table.tick()
    assert match.over and not table.can_undo()
    assert table.undo() is False and match.over
    for _ in range(3):
        table.tick()
    assert len(recorded) == 1 and len(written) == 1


def test_no_takeback_is_asked_over_the_lan_once_the_game_is_over():
    from tests.fakes.remote import SilentRemote
    match = Match("ataxx", None, 3, [Seat("human", "Ann"), Seat("remote", "Ben")])
    remote = SilentRemote(match, seat=0)
    table = Table(match, [HumanController(), Controller()], remote=remote, records=False,
                  now=lambda: 10.0, io=lambda work: work())
    match.play(match.legal_moves()[0])
    assert table.can_undo()
    match.resign(1)
    table.tick()
    assert table.undo() is False
    assert ("takeback", None) not in remote.sent


# --- 14: --demo GAME --headless with no --ai
def test_a_headless_demo_with_no_level_plays_quick_bots_and_says_how_far_it_is():
    import io

    import main
    from players.events import Event, EventKind
    args = main.parse_args(["--demo", "ataxx", "--headless"])
    level, seconds = main.demo_budget(args.ai, args.seconds)
    assert level == "easy" and seconds is not None and seconds <= 0.05
    assert main.demo_budget("hard", None) == ("hard", None)  # asked for: as asked
    assert main.demo_budget(None, 0.3) == ("easy", 0.3)
    match = Match("ataxx", None, 3, [Seat("ai", "A", "easy"), Seat("ai", "B", "easy")])
    out = io.StringIO()
    on_event = main.demo_progress(match, out)
    for _ in range(2 * main.PROGRESS_EVERY):
        match.play(match.legal_moves()[0])
        on_event(Event(EventKind.MOVED, move=match.moves[-1]))
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and lines[-1].startswith(f"ataxx: {2 * main.PROGRESS_EVERY} moves")


# --- 5: Fox Hunt's moves by the field's coordinates
def test_fox_hunt_moves_are_named_by_the_coordinates_drawn_on_the_field(monkeypatch):
    from client.boards.foxhunt import Board, cell_name
    from game.rules import foxhunt
    match = Match("foxhunt", {"size": 10}, 4, [Seat("human", "Ann")])
    fox = match.view(None)["fox_cells"][0]
    board = Board(match.options, foxhunt.SEAT_NAMES)
    for cell in (34, fox):
        before = match.view(None)
        match.play(cell)
        text = board.move_text(cell, before, match.view(None))
        assert text.startswith(cell_name(10, cell) + " (") and str(cell) not in text.split(" (")[0]
    assert cell_name(10, 34) == "E4" and text.endswith("(fox)")
    labels = []
    board.set_view(match.view(0), [], my_turn=False, viewer=0)
    board.layout(pygame.Rect(0, 0, 600, 600))
    import client.ui.theme as theme
    real = theme.text
    monkeypatch.setattr(theme, "text", lambda surface, words, *a, **k: labels.append(words)
                        or real(surface, words, *a, **k))
    board.draw(pygame.Surface((600, 600)))
    assert {"A", "J", "1", "10"} <= set(labels)
    assert board.grid.x >= 20 and board.grid.y >= 20  # room for the labels


# --- 8: the planes rules diagram says what its shots are
def test_the_planes_diagram_marks_and_names_each_shot_by_its_true_answer():
    import re

    from client.boards import planes as board
    from game.rules import planes
    cells = planes.plane_cells(*board.DIAGRAM_PLANE)
    truth = {r * 5 + c: ("head" if i == 0 else "body") for i, (r, c) in enumerate(cells)}
    for cell, answer in board.DIAGRAM_SHOTS:
        assert truth.get(cell, "miss") == answer, f"cell {cell} drawn as {answer}"
    caption = board.Board({}, planes.SEAT_NAMES).diagrams()[1].caption
    named = re.findall(r"\b([A-E][1-5])\b", caption)
    shots = {f"{'ABCDE'[c % 5]}{c // 5 + 1}": a for c, a in board.DIAGRAM_SHOTS}
    assert sorted(named) == sorted(shots)
    for name, answer in shots.items():
        words = {"head": "head", "body": "body", "miss": "miss"}[answer]
        assert words in caption[caption.index(name):], f"{name} is not called a {answer}"


# --- 6: planes: the heat map after a head, planes shot down, the move list
def _planes_layout(seed: int) -> list:
    import random

    from game.rules import planes
    rng = random.Random(seed)
    index, _layouts = planes.layouts(10, 3)
    every = planes.all_planes(10)
    return [list(every[p]) for p in index[rng.randrange(len(index))]]


class Hider(Instant):
    """Instant, and in the planes setup a fixed layout."""

    def request(self, match: Match, seat: int) -> None:
        self.asked.append(len(match.moves))
        self.move = _planes_layout(9) if match.setup_pending() else match.legal_moves()[0]


def test_the_heat_map_still_shows_once_a_head_is_found():
    from ai.planes import assist
    from client.boards.planes import Board
    from game.rules import planes
    match = Match("planes", None, 3, [Seat("human", "Ann"), Seat("human", "Ben")])
    match.play(_planes_layout(1))
    match.play(_planes_layout(2))
    head = planes.plane_cells(*match.view(None)["layouts"][1][0])[0]
    match.play(head[0] * 10 + head[1])
    board = Board(match.options, planes.SEAT_NAMES)
    view = match.view(0)
    board.set_view(view, [], my_turn=False, viewer=0)
    board.heat_mode, board.heat = 1, assist(view)
    shades = board.heat_shades(view["shots"])
    assert head[0] * 10 + head[1] not in shades  # called: its answer is known
    assert max(shades.values()) == 200  # the likeliest open cell at full strength


def _planes_one_shot_down() -> tuple[Match, list]:
    """A hot-seat planes game in which Ann has shot down one whole plane of Ben's, its head
    last (Ben shooting in between); the match and that plane."""
    from game.rules import planes
    match = Match("planes", None, 3, [Seat("human", "Ann"), Seat("human", "Ben")])
    match.play(_planes_layout(1))
    match.play(_planes_layout(2))
    target = match.view(None)["layouts"][1][0]
    cells = [r * 10 + c for r, c in planes.plane_cells(*target)]
    for cell in cells[1:] + cells[:1]:
        match.play(cell)  # Ann
        if not match.over:
            match.play(next(c for c in match.legal_moves()
                            if c not in {s for s, _ in match.view(1)["shots"]}))  # Ben
    return match, target


def test_planes_shot_down_are_marked_on_both_grids():
    from client.boards.planes import Board, downed, downed_unseen
    from game.rules import planes
    match, target = _planes_one_shot_down()
    ann, ben = match.view(0), match.view(1)
    assert downed_unseen(ann) == [list(target)]
    assert downed(10, ben["layout"], ben["incoming"]) == [list(target)]
    board = Board(match.options, planes.SEAT_NAMES)
    board.set_view(ann, match.legal_moves(), my_turn=True, viewer=0)
    assert board.enemy_down == [list(target)]


def test_planes_shot_down_still_show_at_the_end_before_the_other_layout_is_revealed():
    from client.boards.planes import Board
    from game.rules import planes
    match, target = _planes_one_shot_down()
    # A LAN game's end, before the other side's reveal has come: its layout is still hidden.
    ended = dict(match.view(0), phase="over", opponent_layout=planes.HIDDEN_LAYOUT)
    board = Board(match.options, planes.SEAT_NAMES)
    board.set_view(ended, [], my_turn=False, viewer=0)
    assert board.enemy_down == [list(target)]


def test_a_planes_game_lists_its_shots_while_it_is_played(h):
    now = [10.0]
    match = Match("planes", None, 3, [Seat("human", "Ann"), Seat("ai", "Bot", "easy")])
    play = PlayScene(h.app, match, [HumanController(), Hider()], now=lambda: now[0])
    h.app.push(play)
    h.frame()
    assert play.try_move(_planes_layout(4))
    for _ in range(3):
        now[0] += 1.0
        h.frame()
    assert play.try_move(match.legal_moves()[0])
    for _ in range(3):
        now[0] += 1.0
        h.frame()
    assert len(match.moves) == 4
    lines = play.move_list()
    assert len(lines) == 4 and "planes placed" in lines[0]
    assert lines[2].startswith("3.") and lines[2].split()[-1] in ("miss", "body", "head")


# --- 7: the Dots hint names and shows the line to draw
def test_the_dots_hint_shows_the_line_to_draw_with_its_verdict():
    import threading

    from client.boards.dots import Board, hint_for
    from client.ui import theme
    from game.rules import dots
    from tests.fakes.ticking import TickingClock
    options = {"rows": 2, "cols": 2, "first_reply_rule": False}
    state = dots.new_game(options)
    for line in (0, 1, 2):
        state = dots.apply(state, line)
    board = Board(options, dots.SEAT_NAMES)
    board.layout(pygame.Rect(0, 0, 400, 400))
    legal = dots.legal_moves(state)
    board.set_view(dots.view(state, 1), legal, my_turn=True, viewer=state.turn)
    found = hint_for(dots.view(state, None), legal, threading.Event(), TickingClock())
    value, line = found
    assert value is not None and line in legal
    board.take_hint(found)
    name = board.move_text(line, {}, {})
    assert board.hint.startswith(f"Hint: draw {name} (") and "you" in board.hint
    surface = pygame.Surface((400, 400))
    surface.fill(theme.PAPER)
    board.draw(surface)
    a, b = board.line_points(line)
    mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
    near = [surface.get_at((mid[0] + dx, mid[1] + dy))[:3] for dx in range(-6, 7)
            for dy in range(-6, 7)]
    assert tuple(theme.GOOD) in near  # pencilled in on the board


# --- 4: Banqi with fog
def _fog_positions(want):
    """(state, move) pairs of random fog games (seeded) for which want(state, move) holds."""
    import random

    from game.rules import banqi
    for seed in range(200):
        rng = random.Random(seed)
        state = banqi.new_game({"fog": True}, seed)
        while banqi.outcome(state) is None:
            for move in banqi.legal_moves(state):
                if want(state, move):
                    return state, move
            state = banqi.apply(state, rng.choice(banqi.legal_moves(state)))
    raise AssertionError("no such position")


def _fog_board(state, seat):
    from client.boards.banqi import Board
    from game.rules import banqi
    board = Board({"fog": True, "variant": "taiwan"}, banqi.SEAT_NAMES)
    board.layout(pygame.Rect(0, 0, 700, 500))
    board.set_view(banqi.view(state, seat), [], my_turn=False, viewer=seat, animate=False)
    return board


def test_fog_a_piece_turned_up_out_of_sight_is_still_shown_where_it_was_seen():
    from game.rules import banqi

    def flip_into_fog(state, move):
        if len(move) != 2 or state.colors[0] is None:
            return False
        after = banqi.apply(state, move)
        sq = banqi.parse_square(move)
        return banqi.view(after, state.turn)["board"][0] is not None and \
            banqi.parse_board(banqi.view(after, state.turn)["board"])[sq] == "~"

    state, move = _fog_positions(flip_into_fog)
    seat, sq = state.turn, banqi.parse_square(move)
    board = _fog_board(state, seat)
    after = banqi.apply(state, move)
    board.set_view(banqi.view(after, seat), [], my_turn=False, viewer=seat)
    assert board.squares[sq] == "~" and board.memory[sq] == after.board[sq]
    drawn = []
    board._draw_memory = lambda surface, rect, piece: drawn.append(piece)
    board.draw(pygame.Surface((700, 500)))
    assert after.board[sq] in drawn


def test_fog_your_piece_the_other_side_turned_up_is_not_drawn_as_unseen():
    from game.rules import banqi

    def flips_others_piece_alone(state, move):
        if len(move) != 2 or state.colors[0] is None:
            return False
        after = banqi.apply(state, move)
        sq = banqi.parse_square(move)
        mover_colour = state.colors[state.turn]
        piece = after.board[sq]
        return banqi.colour_of(piece) != mover_colour and not any(
            banqi.colour_of(after.board[n]) == mover_colour for n in banqi.NEIGHBOURS[sq])

    state, move = _fog_positions(flips_others_piece_alone)
    me, sq = 1 - state.turn, banqi.parse_square(move)
    board = _fog_board(state, me)
    after = banqi.apply(state, move)
    board.set_view(banqi.view(after, me), [], my_turn=True, viewer=me)
    assert board.squares[sq] == after.board[sq]  # mine: I see it
    assert sq in board._seen_by_enemy()  # they turned it up: they know where it is


def test_fog_against_a_bot_the_move_list_keeps_its_room_in_the_panel(h):
    import random
    now = [10.0]
    match = Match("banqi", {"fog": True}, 3, [Seat("human", "Ann"), Seat("ai", "Bot", "easy")])

    class Random(Instant):
        def request(self, match: Match, seat: int) -> None:
            self.move = random.Random(len(match.moves)).choice(match.legal_moves())

    play = PlayScene(h.app, match, [HumanController(), Random()], now=lambda: now[0])
    h.app.push(play)
    h.frame()
    rng = random.Random(2)
    for _ in range(8):
        assert play.try_move(rng.choice(match.legal_moves()))
        for _ in range(60):
            now[0] += 0.05
            h.frame()
    lines = play.move_list()
    assert len(lines) == 16 and lines[0].startswith("1. ")
    assert play.moves_rect.height // 19 >= 5  # five rows of moves at least


# --- 10: over the LAN, the player to move keeps a move list
def test_over_the_lan_the_player_to_move_sees_the_move_list(h):
    from tests.fakes.remote import SilentRemote
    match = Match("ataxx", None, 3, [Seat("human", "Ann"), Seat("remote", "Ben")])
    for _ in range(6):
        match.play(match.legal_moves()[0])
    remote = SilentRemote(match, seat=0)
    play = PlayScene(h.app, match, [HumanController(), Controller()], session=remote,
                     now=lambda: 10.0)
    h.app.push(play)
    h.frames(3)
    assert play.table.human_to_move() == 0 and len(play.move_list()) == 6
    assert play.moves_rect.height // play.move_row >= 5
    assert all(b.rect.bottom <= play.side.bottom for b in play.panel_buttons.buttons)


# --- 10: over the LAN, each side names the other by the name it gave
def test_over_the_lan_the_guest_names_the_host_by_its_name_in_chat():
    from tests.fakes.wire import memory_pair
    h, g = memory_pair("ataxx")
    assert g.peer_name == h.match.seats[h.seat].name == "Host"


def test_over_the_lan_two_players_of_one_name_are_told_apart():
    from net import session as lan
    from tests.fakes.wire import link_pair
    a, _b = link_pair()
    options = lan.check_lan_options("ataxx", {})
    h = lan.start_hosted(a, "ataxx", options, "Player (vm)", "Player (vm)", seed=1)
    names = [s.name for s in h.match.seats]
    assert names[0] != names[1] and all(n.startswith("Player (vm)") for n in names)


# --- 13: setup for the one-player games offers their helper bot (and Fox Hunt its field)
def test_setup_offers_the_helper_bot_for_2048_and_fox_hunt_and_the_game_uses_it(h):
    from client.scenes.setup import SetupScene
    for game, label in (("g2048", "2048 helper"),
                        ("foxhunt", "Fox Hunt autoplay")):
        setup = SetupScene(h.app, game)
        h.app.push(setup)
        h.frame()
        rows = {row.label: row for row in setup.visible_rows()}
        assert label in rows
        helper = rows[label]
        assert [v for v, _ in helper.choices] == ["random", "easy", "normal", "hard"]
        helper.select([v for v, _ in helper.choices].index("easy"))
        if game == "foxhunt":
            field = rows["Field"]
            assert all("foxes" in words for _, words in field.choices)
        setup.start()
        h.frame()
        play = h.top
        assert isinstance(play, PlayScene) and play.match.game_id == game
        assert play.board.prefs.get(f"{game}_level") == "easy"
        if game == "g2048":
            assert play.board.helper_level == "easy"  # autoplay and hints ask this bot
        h.app.pop_to("title")


def test_watching_a_one_player_game_offers_no_helper_rows_nor_buttons(h):
    """The helper bot (hints, autoplay) helps a person: watching Fox Hunt or 2048, the setup
    showed its row beside the playing bot's, and the play screen Hint and Autoplay buttons and
    an H key that did something (2048 asked its bot for a hint nobody would use)."""
    from client.scenes.setup import SetupScene
    for game, helper in (("g2048", "2048 helper"), ("foxhunt", "Fox Hunt autoplay")):
        setup = SetupScene(h.app, game, watch=True)
        h.app.push(setup)
        h.frame()
        labels = [row.label for row in setup.visible_rows()]
        assert helper not in labels and "2048 AI time" not in labels
        setup.start()
        h.frame()
        play = h.top
        assert isinstance(play, PlayScene) and not play.humans
        shown = [b.label for b in play.panel_buttons.buttons]
        assert not any(label.startswith(("Hint", "Autoplay")) for label in shown), shown
        h.key(pygame.K_h, "h")
        assert not (play.board.heat_on if game == "foxhunt" else play.board.hint_busy)
        h.app.pop_to("title")


# --- 11: text: move numbers agree, status lines start with a capital
def _random_move(match: Match, rng) -> Any:
    if match.setup_pending():
        return _planes_layout(rng.randrange(10**6))
    return rng.choice(match.legal_moves())


def test_the_status_line_numbers_the_next_move_as_the_move_list_does(h):
    import random
    import re
    rng = random.Random(3)
    match = Match("ataxx", None, 2, [Seat("human", "Ann"), Seat("human", "Ben")])
    play = PlayScene(h.app, match, [HumanController(), HumanController()], now=lambda: 10.0)
    h.app.push(play)
    for _ in range(7):
        match.play(_random_move(match, rng))
        play.refresh(animate=False)
        h.frame()
        numbered = [line for line in play.board.status() if line.startswith("Move ")]
        shown = int(re.match(r"Move (\d+)", numbered[0]).group(1))
        listed = play.move_list()
        assert listed[-1].startswith(f"{len(match.moves)}.") and shown == len(match.moves) + 1


@pytest.mark.long
def test_every_status_line_starts_with_a_capital(h):
    """(A side's own symbol, Ataxx's x and o, is written as the board marks it.)"""
    import random

    from game import registry
    rng = random.Random(5)
    bad = []
    for game in registry.available():
        n = registry.get(game).players
        seats = [Seat("human", "Ann"), Seat("human", "Ben")][:n]
        match = Match(game, {"fog": False} if game == "banqi" else None, 2, seats)
        play = PlayScene(h.app, match, [HumanController() for _ in seats], now=lambda: 10.0)
        h.app.push(play)
        for _ in range(400):
            h.frame()
            texts = [play.status_text()] + play.board.status()
            if match.over:  # the result card's reason, a line of its own ("all lines drawn")
                texts.append(ResultScene(h.app, play).reason)
            bad += [(game, t) for t in texts
                    if t[:1].islower() and not t.startswith(("x ", "o "))]
            if match.over:
                break
            match.play(_random_move(match, rng))
            play.refresh(animate=False)
        h.app.pop()
    assert not bad, sorted({(g, t[:30]) for g, t in bad})[:10]


def test_the_replay_players_result_line_starts_with_a_capital(h):
    """It read "draw 7-6 animals left (the same position three times)" under the title."""
    for winner in (None, 1):
        match = Match("dots", None, 2, [Seat("human", "Ann"), Seat("human", "Ben")])
        match.play(match.legal_moves()[0])
        match.resign(0) if winner else match.agree_draw()
        h.app.push("replay", match=match)
        h.frame()
        assert h.top.result_text[:1].isupper(), h.top.result_text
        h.app.pop()
    # Ataxx's sides are the marks x and o, written as the board marks them, and in Chinese as
    # a side: "o 方获胜", not "O获胜" nor "o获胜"
    from game import i18n
    match = Match("ataxx", None, 2, [Seat("human", "Ann"), Seat("human", "Ben")])
    match.play(match.legal_moves()[0])
    match.resign(0)
    for language, start in (("en", "o "), ("zh_CN", "o 方获胜"), ("zh_TW", "o 方獲勝")):
        i18n.set_language(language)
        try:
            h.app.push("replay", match=match)
            h.frame()
            assert h.top.result_text.startswith(start), h.top.result_text
            h.app.pop()
        finally:
            i18n.set_language("en")


def test_the_setups_side_choices_start_with_a_capital_as_every_choice_does(h):
    """"You play" offered "red (moves first)" and "blue" beside "Random"."""
    from client.scenes.setup import SetupScene
    from game import registry
    for game in registry.available():
        setup = SetupScene(h.app, game)
        if setup.first is not None:
            labels = [label for _, label in setup.first.choices]
            # (a side's own symbol, Ataxx's x and o, is written as the board marks it)
            assert not [label for label in labels if label[:1].islower()
                        and not label.startswith(("x ·", "o ·"))], labels


def test_ataxx_setup_says_which_ink_x_and_o_play_in(h):
    """The setup offered "x（先走）" and "o", bare letters on a Chinese screen; the panel
    says "x · 红方"."""
    from client.scenes.setup import SetupScene
    from game import i18n
    i18n.set_language("zh_CN")
    try:
        play = SetupScene(h.app, "ataxx")
        watch = SetupScene(h.app, "ataxx", watch=True)
    finally:
        i18n.set_language("en")
    labels = [label for _, label in play.first.choices]
    assert labels[:2] == ["x · 红方（先走）", "o · 蓝方"], labels
    assert (watch.bot_a.label, watch.bot_b.label) == ("x · 红方", "o · 蓝方")


def test_a_side_named_for_its_turn_is_not_told_again_that_it_moves_first(h):
    """Banqi's "You play" offered "First (moves first)" (先手（先走）); Jungle says which
    colour moves first, as its names do not."""
    from client.scenes.setup import SetupScene
    from game import i18n
    for language in ("en", "zh_CN"):
        i18n.set_language(language)
        try:
            banqi = [label for _, label in SetupScene(h.app, "banqi").first.choices]
            jungle = [label for _, label in SetupScene(h.app, "jungle").first.choices]
        finally:
            i18n.set_language("en")
        assert banqi[:2] == (["First", "Second"] if language == "en" else ["先手", "后手"]), banqi
        moves_first = "moves first" if language == "en" else "先走"
        assert moves_first in jungle[0] and moves_first not in jungle[1], jungle


# --- 11: result scores say what they count, the winner's first
def test_result_scores_say_what_they_count_and_put_the_winners_first(h):
    from client.scenes.replays import _result_words
    from game import replay
    from game.i18n import result_summary
    match = Match("ataxx", None, 2, [Seat("human", "Ann"), Seat("human", "Ben")])
    rng = random.Random(1)
    while not match.score()[1] > match.score()[0]:
        match.play(rng.choice(match.legal_moves()))
    match.resign(0)  # the second side wins, ahead on stones (a count behind is not said)
    out = match.outcome()
    assert out.winner == 1 and out.score[1] > out.score[0]
    first_is_winner = f"{out.score[1]}-{out.score[0]}"
    assert f"wins {first_is_winner} stones on the board" in result_summary(
        match, "stones on the board")
    entry = replay.ReplayEntry(path=None, game="ataxx", date=0.0, line="", seats=["Ann", "Ben"],
                               moves=1, winner=1, score=tuple(out.score),
                               termination=out.termination.value)
    assert f"{first_is_winner} stones on the board" in _result_words(entry)
    play = PlayScene(h.app, match, [HumanController(), HumanController()], now=lambda: 10.0)
    h.app.push(play)
    card = ResultScene(h.app, play)
    assert card.score_unit == "Score: stones on the board"
    # 2048's plain points say nothing the score row does not ("Score: points" above "Score")
    solo = Match("g2048", None, 3, [Seat("human", "Ann")])
    solo.resign(0)
    play = PlayScene(h.app, solo, [HumanController()], now=lambda: 10.0)
    h.app.push(play)
    assert ResultScene(h.app, play).score_unit == ""


def test_the_panel_parts_a_seats_side_from_who_plays_it(h):
    """"Blue  AI Normal" ran the two together with two spaces; a person here has no label."""
    drawn: list[str] = []
    match = Match("dots", None, 3, [Seat("human", "Ann"), Seat("ai", "Bot", "normal")])
    play = PlayScene(h.app, match, [HumanController(), Controller()], now=lambda: 10.0)
    h.app.push(play)
    from client.ui import theme
    real = theme.text
    try:
        theme.text = lambda surface, words, *a, **k: drawn.append(words) or real(
            surface, words, *a, **k)
        h.frame()
    finally:
        theme.text = real
    assert "Red" in drawn and "Blue · AI Normal" in drawn, drawn[:12]


def test_the_rules_page_keys_scroll_by_a_line_a_page_and_to_either_end(h):
    h.app.push("rules", game_id="jungle")
    h.frame()
    page = h.top
    assert page.max_scroll > 400  # the longest pages run well past one screen
    h.key(pygame.K_DOWN)
    assert page.scroll == 120
    h.key(pygame.K_PAGEDOWN)
    assert page.scroll == min(page.max_scroll, 120 + page.box.height - 80) > 240
    h.key(pygame.K_END)
    assert page.scroll == page.max_scroll
    h.key(pygame.K_PAGEUP)
    assert page.scroll == page.max_scroll - (page.box.height - 80)
    h.key(pygame.K_HOME)
    assert page.scroll == 0


def test_fog_after_two_flips_the_one_out_of_sight_is_told_by_the_counts():
    """Between two looks (a hot-seat hand-over) a seat flipped a piece it sees and the other
    side one out of its sight: the counts, less the piece it saw, tell the other one."""
    import random

    from game.rules import banqi
    for seed in range(100):
        rng = random.Random(seed)
        state = banqi.new_game({"fog": True}, seed)
        found = None
        while banqi.outcome(state) is None and found is None:
            x = state.turn
            if state.colors[0] is not None:
                for a in (m for m in banqi.legal_moves(state) if len(m) == 2):
                    sa = banqi.apply(state, a)
                    seen_a = banqi.parse_board(banqi.view(sa, x)["board"])[banqi.parse_square(a)]
                    if not seen_a.isalpha():
                        continue
                    for b in (m for m in banqi.legal_moves(sa) if len(m) == 2):
                        sb = banqi.apply(sa, b)
                        shown = banqi.parse_board(banqi.view(sb, x)["board"])
                        if shown[banqi.parse_square(b)] == "~" and sb.board[
                                banqi.parse_square(b)] != seen_a:
                            found = (state, a, b, sb)
                            break
                    if found:
                        break
            if found is None:
                state = banqi.apply(state, rng.choice(banqi.legal_moves(state)))
        if found:
            break
    assert found, "no such pair of flips"
    state, a, b, after = found
    board = _fog_board(state, state.turn)
    board.set_view(banqi.view(after, state.turn), [], my_turn=True, viewer=state.turn)
    assert board.memory[banqi.parse_square(b)] == after.board[banqi.parse_square(b)]


# --- a LAN game goes on under a dialog of this side's own
def test_a_lan_game_goes_on_under_a_dialog_and_a_question_withdrawn_there_goes(h):
    from client.scenes.dialog import ConfirmScene
    from tests.fakes.wire import memory_pair, settle
    from tests.test_lan import local_move
    host, guest = memory_pair("ataxx")
    rng = random.Random(2)
    if host.match.to_move() == host.seat:
        host.submit(local_move(host, rng))
        settle(host, guest)
    play = PlayScene(h.app, host.match, [HumanController(), Controller()], session=host,
                     now=lambda: 10.0)
    h.app.push(play)
    h.frame()
    mine = h.app.push("confirm", message="Leave the game?", on_yes=lambda: None)
    before = len(host.match.moves)
    guest.submit(local_move(guest, rng))
    h.frames(3)
    guest.events()
    assert len(host.match.moves) == len(guest.match.moves) == before + 1  # under the dialog
    assert h.top is mine
    guest.request_takeback()
    h.frames(3)
    asked = h.top
    assert isinstance(asked, ConfirmScene) and asked is not mine
    guest.close()
    h.frames(3)
    assert asked not in h.app.stack and mine in h.app.stack  # the question went with the link
    assert h.top.message == "The other player is gone"
    # Enter on the dialog waits: claiming ends the game that could have gone on (a real-window
    # pass found "Claim the game" focused)
    assert h.top.buttons.buttons[h.top.buttons.focus].label == "Wait"


@pytest.mark.parametrize("local", [0, 1])
@pytest.mark.parametrize("game", ["ataxx", "jungle"])
@pytest.mark.parametrize("size", [(800, 560), (1100, 720), (1280, 800)])
def test_over_the_lan_the_panels_buttons_keep_their_size_as_the_move_hint_comes_and_goes(
        game, size, local):
    """From the first frame, whoever moves first: the panel keeps room for the hint."""
    from players.events import Event, EventKind
    from tests.fakes.remote import SilentRemote
    from tests.harness import Harness

    class Echo(SilentRemote):
        """A link whose host plays each move sent, and whose peer moves when told."""

        def __init__(self, match: Match) -> None:
            super().__init__(match, seat=local)
            self.queue: list[Event] = []

        def events(self) -> list[Event]:
            out, self.queue = self.queue, []
            return out

        def submit(self, move: Any) -> None:
            self.match.play(move)
            self.queue.append(Event(EventKind.MOVED, move=move))

    h = Harness(size)
    try:
        seats = [Seat("human", "Ann"), Seat("remote", "Ben")]
        match = Match(game, None, 3, seats if local == 0 else seats[::-1])
        link = Echo(match)
        controllers = [HumanController(), Controller()]
        play = PlayScene(h.app, match, controllers if local == 0 else controllers[::-1],
                         session=link, now=lambda: 10.0)
        h.app.push(play)
        rects: dict[bool, list] = {}
        for _ in range(4):
            h.frames(3)
            mine = match.to_move() == local
            rects.setdefault(mine, [b.rect.copy() for b in play.panel_buttons.buttons])
            assert [b.rect for b in play.panel_buttons.buttons] == rects[mine]
            assert rects[mine] == next(iter(rects.values()))  # the hint shows on one's turn
            link.submit(match.legal_moves()[0])  # a move of each side in turn
    finally:
        h.close()


@pytest.mark.parametrize("width", [520, 900])
def test_the_planes_legend_keeps_its_plane_on_a_narrow_window(monkeypatch, width):
    from client.boards.planes import Board
    from client.ui import theme
    from game.rules import planes
    match, _target = _planes_one_shot_down()
    board = Board(match.options, planes.SEAT_NAMES)
    board.layout(pygame.Rect(12, 64, width, 484))  # 520: the board's room in an 800x560 window
    board.set_view(match.view(0), match.legal_moves(), my_turn=True, viewer=0)
    drawn: list[tuple[str, tuple]] = []
    real = theme.text

    def text(surface, words, pos, *args, **kwargs):
        drawn.append((words, pos))
        return real(surface, words, pos, *args, **kwargs)

    monkeypatch.setattr(theme, "text", text)
    board.draw(pygame.Surface((width + 24, 560)))
    where = [pos for words, pos in drawn if words == "plane"]
    assert len(where) == 1
    x, y = where[0]
    assert x < board.enemy_rect.x and y < board.rect.bottom  # beside its marks, on the board


def test_a_one_player_game_a_bot_played_names_the_bot_not_you(h):

    for kind, controller, headline in (("ai", Controller(), "Normal bot 1 made it!"),
                                       ("human", HumanController(), "You made it!")):
        match = Match("foxhunt", None, 4, [Seat(kind, "Normal bot 1", "normal")])
        while not match.over:
            match.play(match.legal_moves()[0])
        assert match.outcome().winner == 0
        play = PlayScene(h.app, match, [controller], now=lambda: 10.0)
        h.app.push(play)
        assert ResultScene(h.app, play).headline == headline
        h.app.pop()


@pytest.mark.parametrize("seed", range(12))
def test_fog_no_piece_of_ones_own_is_remembered_under_a_cloud(seed):
    """A seat's piece taken on a square it then could not see stayed pencilled there as last
    seen, while it lay in the captured tray: a seat sees every square its pieces stand on, so
    its own piece under a cloud is one it has lost. Over whole random games, for both seats."""
    from client.boards.banqi import Board
    from game.rules import banqi
    rng = random.Random(seed)
    state = banqi.new_game({"fog": True}, seed)
    boards = [Board({"fog": True, "variant": "taiwan"}, banqi.SEAT_NAMES) for _ in (0, 1)]
    lost = 0
    while banqi.outcome(state) is None and len(state.history) < 400:
        state = banqi.apply(state, rng.choice(banqi.legal_moves(state)))
        for seat, board in enumerate(boards):
            board.set_view(banqi.view(state, seat), [], my_turn=False, viewer=seat, animate=False)
            if board.my_colour is None or banqi.outcome(state) is not None:
                continue
            for sq, piece in board.memory.items():
                assert board.squares[sq] != "~" or banqi.colour_of(piece) != board.my_colour
            lost += sum(banqi.colour_of(p) == board.my_colour for p in board.view["captured"])
    assert lost  # the games took pieces


@pytest.mark.parametrize("seed", [3, 7])
def test_fog_a_game_continued_remembers_what_its_seat_saw_before(h, seed):
    """Continued, tried again or taken up over the LAN, a fog Banqi game's board started with
    no memory: pieces its seat had seen go under the clouds were plain clouds. The play screen
    gives the board its seat's earlier views first, so it remembers as if it had watched; and a
    view it missed (two plies in one frame) it is given too."""
    from client.boards.banqi import Board
    from client.scenes.base import start_match
    from game.rules import banqi
    rng = random.Random(seed)
    match = Match("banqi", {"fog": True}, seed, [Seat("human", "Ann"), Seat("ai", "Bot", "easy")])
    while len(match.moves) < 60 or match.to_move() != 0:
        match.play(rng.choice(match.legal_moves()))
    watched = Board({"fog": True, "variant": "taiwan"}, banqi.SEAT_NAMES)
    for state in match.states:
        watched.set_view(banqi.view(state, 0), [], my_turn=False, viewer=0, animate=False)
    assert watched.memory  # something went under the clouds
    start_match(h.app, match)
    h.frame()
    play = h.top
    assert play.board.memory == watched.memory and play.board.turned == watched.turned
    for _ in range(2):  # two plies between two frames
        match.play(rng.choice(match.legal_moves()))
        watched.set_view(banqi.view(match.state, 0), [], my_turn=False, viewer=0, animate=False)
    play.refresh(animate=False)
    assert play.board.memory == watched.memory


def test_fog_a_replay_watched_with_a_seats_eyes_remembers_what_it_had_seen_by_then(h):
    """Sought back in a replay, a fog board still pencilled the pieces its seat saw later in
    the game (and, sought forward, missed those seen in between): at any move, the board
    remembers what the seat had seen by that move."""
    from client.boards.banqi import Board
    from client.scenes.replays import ReplayPlayerScene
    from game.rules import banqi
    rng = random.Random(2)
    match = Match("banqi", {"fog": True}, 5, [Seat("human", "Ann"), Seat("human", "Ben")])
    while len(match.moves) < 70 and not match.over:
        match.play(rng.choice(match.legal_moves()))
    scene = ReplayPlayerScene(h.app, match)
    h.app.push(scene)
    scene.viewer_row.select([v for v, _ in scene.viewer_row.choices].index(1))
    for ply in (len(match.moves), 30, 55, 12, 13):
        scene.seek(ply)
        watched = Board({"fog": True, "variant": "taiwan"}, banqi.SEAT_NAMES)
        for state in match.states[:ply + 1]:
            watched.set_view(banqi.view(state, 1), [], my_turn=False, viewer=1, animate=False)
        assert scene.board.memory == watched.memory, ply


def _lan_result_card(h: Harness):
    """Ann's card after Bob resigned an Ataxx game over a LAN link that answers nothing."""
    from tests.fakes.remote import SilentRemote
    match = Match("ataxx", None, 2, [Seat("human", "Ann"), Seat("remote", "Bob")])
    match.resign(1)
    session = SilentRemote(match)
    play = PlayScene(h.app, match, [HumanController(), Controller()], session=session,
                     now=lambda: 10.0)
    h.app.push(play)
    card = ResultScene(h.app, play)
    h.app.push(card)
    h.settle()
    return session, card


def test_a_lan_result_card_stops_offering_a_rematch_once_the_other_player_left(h):
    """A real-window pass: the other player went back to the menu after the end, and the card
    still offered "Rematch (R)"; each press said "Rematch offered" and nothing ever came, and
    presses while one waited stacked their toasts over Menu."""
    session, card = _lan_result_card(h)
    rematch = card.buttons.buttons[0]
    assert rematch.label == "Rematch (R)" and rematch.enabled
    h.key(pygame.K_r)
    h.frames(2)
    assert session.sent == [("rematch", None)] and not card.buttons.buttons[0].enabled
    h.key(pygame.K_r)  # pressed again while it waits: nothing more is sent
    h.frames(2)
    assert session.sent == [("rematch", None)]
    del session.offers["rematch"]  # Bob answered no
    h.frames(2)
    assert card.buttons.buttons[0].enabled
    session.connected = False  # Bob's link closed after the end
    h.frames(2)
    rematch = card.buttons.buttons[0]
    assert rematch.label == "Rematch (R)" and not rematch.enabled
    assert any("Bob left" in t for t, _ in h.app.toasts)


def test_a_lan_result_card_says_a_rematch_waits_and_opens_the_chat_with_t(h):
    """The card's Rematch greyed while its offer waited, with no word of what it waited for
    (draw and takeback offers keep a line in the panel); and T, the chat's key in the game, did
    nothing on the card, where players say "good game"."""
    from client.scenes.dialog import PromptScene
    session, card = _lan_result_card(h)
    waiting = "Rematch offered: waiting for Bob (o) to answer"
    assert not any(waiting in note for note in card.notes())
    h.key(pygame.K_r)
    h.frames(2)
    assert any(waiting in line for line in card.reason_lines)
    del session.offers["rematch"]  # answered
    h.frames(2)
    assert not any(waiting in line for line in card.reason_lines)
    h.key(pygame.K_t)
    assert isinstance(h.top, PromptScene)
    h.top.field.value = "gg"
    h.key(pygame.K_RETURN)
    assert ("chat", "gg") in session.sent and h.top is card
    session.connected = False
    h.frames(2)
    chat = [b for b in card.buttons.buttons if b.label == "Chat (T)"]
    assert chat and not chat[0].enabled


def test_the_panel_chat_after_the_end_is_greyed_as_the_cards_once_the_other_player_left(h):
    """A real-window pass: after the end, with the other player gone, the card's Chat was
    greyed and the panel's (behind "Look at the board") still pressable, its line unsent."""
    session, card = _lan_result_card(h)
    play = card.play

    def chats() -> list[bool]:
        """The Chat buttons shown: the card's, if it is up, and the panel's."""
        shown = [card] if h.top is card else []
        buttons = [b for scene in shown for b in scene.buttons.buttons]
        return [b.enabled for b in [*buttons, *play.panel_buttons.buttons]
                if b.label == "Chat (T)"]

    assert chats() == [True, True]
    session.connected = False  # Bob's link closed after the end
    h.frames(2)
    h.key(pygame.K_b)  # look at the board: the panel's Chat, greyed, and T does nothing
    h.frames(1)
    assert h.top is play and chats() == [False]
    h.key(pygame.K_t)
    assert h.top is play
    session.connected = True  # back (a link taken up again)
    h.frames(2)
    assert chats() == [True]


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 1080), (1600, 1000)])
def test_a_result_card_grows_with_a_tall_window_and_still_fits_it(size):
    """At 1920x1080 the card kept its 1280x800 measures, small over a board that grows."""
    def card_at(at: tuple[int, int]) -> tuple[pygame.Rect, list[pygame.Rect]]:
        harness = Harness(at)
        try:
            _session, card = _lan_result_card(harness)
            harness.key(pygame.K_r)  # a rematch waits: the card says so, one line more
            harness.frames(2)
            return pygame.Rect(card.box), [pygame.Rect(b.rect) for b in card.buttons.buttons]
        finally:
            harness.close()
    small_box, small = card_at((1280, 800))
    box, rects = card_at(size)
    assert box.width > small_box.width and all(b.height > a.height for a, b in zip(small, rects))
    assert pygame.Rect((0, 0), size).contains(box) and all(box.contains(r) for r in rects)
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])


@pytest.mark.parametrize("size", [(800, 560), (1280, 800)])
def test_a_lan_result_card_with_all_it_may_say_fits_the_window(size):
    """A LAN card has a Chat button and may say a rematch waits: at the smallest window its
    last buttons (Look at the board, Menu) stood below the window's foot."""
    harness = Harness(size)
    try:
        _session, card = _lan_result_card(harness)
        harness.key(pygame.K_r)
        harness.frames(2)
        window = pygame.Rect((0, 0), size)
        rects = [b.rect for b in card.buttons.buttons]
        assert len(rects) == 6 and card.notes()
        assert window.contains(card.box) and all(card.box.contains(r) for r in rects)
        assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    finally:
        harness.close()
