"""The Chinese screens (issue 29, 中文 and 繁體中文): names, colours, move lists and replay
summaries in the language; one English word with two meanings told apart by its context; the
terms a Chinese player knows; brackets kept whole when a line wraps; the piece glyphs of the
language (or of the player's choice); Jungle's usual ranks."""

from __future__ import annotations

import errno
import random
import re

import hypothesis
import pygame
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ai.base import Budget
from client.boards.banqi import Board as BanqiBoard
from client.boards.jungle import Board as JungleBoard
from client.scenes.base import start_match
from client.ui import theme
from game import i18n, replay, saves, settings
from game.i18n import Text, _, pgettext
from game.match import Match, Seat
from game.rules import RulesError, jungle
from tests.fakes.cancel import frozen_clock
from tests.harness import Harness


@pytest.fixture
def h():
    harness = Harness((1100, 720))
    harness.app.push("title")
    yield harness
    i18n.set_language("en")
    harness.close()


@pytest.fixture
def zh():
    i18n.set_language("zh_CN")
    yield
    i18n.set_language("en")


def played(game_id: str, plies: int, seats: list[Seat], seed: int = 2) -> Match:
    match = Match(game_id, None, seed, seats)
    rng = random.Random(seed)
    bot = match.info.ai_module()
    for _ply in range(plies):
        if match.over:
            break
        if match.setup_pending():
            match.play(bot.choose_setup(match.view(match.to_move()),
                                        Budget(1, now=frozen_clock()), "easy", rng))
        else:
            match.play(rng.choice(match.legal_moves()))
    return match


def latin(text: str) -> list[str]:
    """The Latin words in text, coordinates (b4, C7, a1-b1) left out."""
    return [w for w in re.findall(r"[A-Za-z]+\d*", text) if not re.fullmatch(r"[A-Ja-j]\d+", w)]


# --- names
def test_default_names_are_said_in_the_language_and_typed_names_as_typed(zh):
    match = Match("dots", None, 1, [Seat("human", "You"), Seat("ai", "Bot", "easy")])
    assert i18n.seat_title(match, 0) == "你（红方）"
    assert i18n.seat_title(match, 1).startswith("电脑")
    assert i18n.person("Player") == "玩家" and i18n.person("Ann") == "Ann"


def test_the_settings_page_shows_the_default_name_in_the_language_and_keeps_it_default(h):
    i18n.set_language("zh_CN")
    page = h.app.push("settings")
    assert page.name.value == "玩家"
    page.back()
    assert settings.get("player_name") == settings.DEFAULTS["player_name"]


# --- Banqi colours
def test_banqi_sides_say_their_colours_in_the_language(zh):
    board = BanqiBoard({"variant": "taiwan", "fog": False}, ("first", "second"))
    match = Match("banqi", None, 3, [Seat("human", "Ann"), Seat("human", "Ben")])
    while match.view(None)["colors"][0] is None:
        match.play(match.legal_moves()[0])
    board.set_view(match.view(None), [], my_turn=False, viewer=None, animate=False)
    names = {board.side_name(0), board.side_name(1)}
    assert names == {"先手 · 红方", "后手 · 黑方"}, names


# --- move lists in each language's notation
@pytest.mark.parametrize("game_id,plies,expect", [
    ("dots", 6, r"\d+\. (红方|蓝方) [a-f]\d-[a-f]\d"),
    ("jungle", 6, r"\d+\. (红方|蓝方) [a-g]\d[a-g]\d"),
    ("banqi", 6, r"\d+\. (先手|后手) [a-h]\d( \S|-[a-h]\d( 吃\S)?)"),
    ("g2048", 6, r"\d+\. [↑↓←→] [上下左右]"),
])
def test_the_live_move_list_speaks_chinese(h, game_id, plies, expect):
    i18n.set_language("zh_CN")
    seats = [Seat("human", "Ann")] if game_id == "g2048" else [Seat("human", "Ann"),
                                                                Seat("human", "Ben")]
    start_match(h.app, played(game_id, plies, seats))
    h.frames(2)
    scene = h.app.top
    lines = scene.move_list()
    assert lines and all(re.fullmatch(expect, line) for line in lines), lines


def test_planes_shots_say_their_answers_in_chinese(h):
    i18n.set_language("zh_TW")
    player = h.app.push("replay", match=played("planes", 12, [Seat("human", "Ann"),
                                                                Seat("ai", "Bot", "easy")]))
    h.frame()
    shots = player.move_texts[2:]
    assert shots and all(re.fullmatch(r"[A-J]\d+ (落空|機身|機頭)", t) for t in shots), shots


def test_banqi_captures_are_written_in_chinese(zh):
    board = BanqiBoard({"variant": "taiwan", "fog": False}, ("first", "second"))
    squares = ["."] * 32
    squares[0], squares[1] = "R", "n"
    from game.rules import banqi
    before = {"board": banqi.board_text(squares)}
    assert board.move_text("a1b1", before, before) == "a1-b1 吃马"


# --- replay summaries in the list
def test_the_replay_list_says_each_result_in_the_language(h):
    for game_id in ("dots", "jungle", "g2048", "foxhunt"):
        seats = [Seat("human", "Ann")] if game_id in ("g2048", "foxhunt") else [
            Seat("human", "Ann"), Seat("ai", "Bot", "easy")]
        replay.save_replay(played(game_id, 100000, seats, seed=3), 60.0)
    i18n.set_language("zh_TW")
    browser = h.app.push("replays")
    h.wait_until(lambda: len(browser.entries) == 4)
    for entry in browser.entries:
        title, line = browser.describe(entry)
        assert not latin(title.replace("Ann", "")) and not latin(line), (title, line)
        assert "：" in title and ": " not in title, title


# --- pgettext: one English word, two meanings
def test_play_is_start_on_the_title_and_play_back_in_the_replay_viewer(h, monkeypatch):
    i18n.set_language("zh_CN")
    assert pgettext("title screen: start a game", "Play") == "开始"
    assert pgettext("replay viewer: run the replay", "Play") == "播放"
    drawn: list[str] = []
    real = theme.text
    monkeypatch.setattr(theme, "text", lambda surface, s, *a, **k: (drawn.append(s),
                                                                     real(surface, s, *a, **k))[1])
    h.app.close_all()
    h.app.push("title")
    h.frame()
    assert "开始" in drawn and "播放" not in drawn
    player = h.app.push("replay", match=played("dots", 4, [Seat("human", "Ann"),
                                                           Seat("human", "Ben")]))
    h.frame()
    assert player.buttons.buttons[2].label == "播放"


def test_the_extraction_knows_pgettext_and_keeps_contexts():
    from babel.messages.extract import extract

    spec = __import__("importlib.util").util.spec_from_file_location("i18n_bench",
                                                                     "bench/i18n.py")
    bench = __import__("importlib.util").util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    import io
    found = list(extract("python", io.BytesIO(b'pgettext("ctx", "Play")\n'),
                         keywords=bench.KEYWORDS))
    assert found[0][1] == "Play" and found[0][3] == "ctx"


# --- terms a Chinese player knows
def test_2048_undoes_a_move_with_the_word_for_undo_not_take_back(h):
    i18n.set_language("zh_CN")
    start_match(h.app, played("g2048", 3, [Seat("human", "Ann")]))
    h.frames(2)
    scene = h.app.top
    labels = [b.label for b in scene.panel_buttons.buttons]
    assert any(lbl.startswith("撤销") for lbl in labels) and not any("悔棋" in lbl
                                                                   for lbl in labels), labels
    h.app.close_all()
    start_match(h.app, played("dots", 3, [Seat("human", "Ann"), Seat("human", "Ben")]))
    h.frames(2)
    scene = h.app.top
    assert any(b.label.startswith("悔棋") for b in scene.panel_buttons.buttons)


@pytest.mark.parametrize("lang", ["zh_CN", "zh_TW"])
def test_the_terms_read_as_a_chinese_player_says_them(lang):
    i18n.set_language(lang)
    try:
        assert _("Replays") in ("棋谱", "棋譜") and _("Watch replay") in ("复盘", "復盤")
        assert not re.search("录像|錄影|錄像", _("Replay: {game}"))
        assert not re.search("轮数相等|輪數相等", _("Equal turns") + _("Equal turns is on"))
        assert not re.search("默认电脑|預設電腦", _("Default AI"))
        planes_draw = i18n.translate_text(
            __import__("game.rules.planes", fromlist=["RULES_TEXT"]).RULES_TEXT)
        assert "平局" in planes_draw and "和棋" not in planes_draw
    finally:
        i18n.set_language("en")


# --- wrapping: brackets kept whole where that leaves little room, never left open at a line's end
WRAPPED = ["先手找到最后一个机头时，后手仍可再打一炮（使双方炮数相等），"
           "如果这一炮也找到了机头（★）就是平局。",
           "後手的第一條線不能是先手第一條線的鏡像或旋轉，以免在對稱的棋盤上照抄對方。若剩下的每條線都是這樣的"
           "鏡像（只有一個格子的棋盤），此規則不適用。",
           "吃下一條長鏈時，可以把最後兩個格子留給對手（即「雙交叉」），以保住對其餘部分的主動權。"]


@pytest.mark.parametrize("text", WRAPPED)
@pytest.mark.parametrize("width", [120, 200, 240, 280, 330, 400, 640, 900, 1250])
def test_a_wrapped_chinese_line_leaves_little_room_and_no_bracket_open_at_its_end(text, width):
    """A bracketed run stood whole on the next line even when that left a fifth of a wide
    line empty (「（只有一個格子的棋盤）」 at 1600 px): it is kept whole only where it leaves at
    most three characters' room; an opening bracket never ends a line, a closing one never
    starts one."""
    size = 18
    f = theme.font(size)
    lines = theme.wrap(text, width, size)
    assert "".join(lines) == text
    em = f.size("中")[0]
    for n, line in enumerate(lines):
        assert f.size(line.rstrip(theme._NO_LINE_START))[0] <= width, (line, width)  # it hangs
        assert n == 0 or line[0] not in theme._NO_LINE_START, lines
        if n < len(lines) - 1:
            assert line[-1] not in theme._OPENERS, lines
            # room for a closer and the character it takes down, or an opener's run moved down
            assert width - f.size(line)[0] <= theme._GAP_EMS * f.get_height() + 2 * em, lines


@pytest.mark.parametrize("width", [200, 240, 280, 330, 400])
def test_a_short_bracket_near_a_lines_end_moves_down_whole(width):
    text = "如果这一炮也找到了机头（★）就是平局。" * 3
    for line in theme.wrap(text, width, 18):
        assert line.count("（") == line.count("）"), line  # 「（★）」 is never broken


# --- glyphs on the pieces
@pytest.mark.parametrize("lang,mode,expect", [
    ("zh_CN", "auto", "帅车马将"), ("zh_TW", "auto", "帥俥傌將"), ("en", "auto", "帥俥傌將"),
    ("zh_CN", "traditional", "帥俥傌將"), ("zh_TW", "simplified", "帅车马将"),
    ("zh_CN", "letters", "KRNK"),
])
def test_banqi_glyphs_follow_the_language_or_the_players_choice(lang, mode, expect):
    i18n.set_language(lang)
    try:
        board = BanqiBoard({"variant": "taiwan", "fog": False}, ("first", "second"),
                           prefs={"banqi_glyphs": mode})
        assert "".join(board.glyph(p)[0] for p in "KRNk") == expect
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang,mode,expect", [
    ("zh_CN", "auto", "狮猫"), ("zh_TW", "auto", "獅貓"), ("zh_CN", "traditional", "獅貓"),
    ("en", "simplified", "狮猫"),
])
def test_jungle_glyphs_follow_the_language_or_the_players_choice(lang, mode, expect):
    i18n.set_language(lang)
    try:
        board = JungleBoard({}, ("red", "blue"), prefs={"jungle_glyphs": mode})
        assert board.glyph("L")[0] + board.glyph("c")[0] == expect
    finally:
        i18n.set_language("en")


def test_both_glyph_sets_are_offered_in_settings(h):
    page = h.app.push("settings")
    offered = {row.label: [v for v, _lbl in row.choices] for row in page.rows
               if hasattr(row, "choices")}
    for label in (_("Banqi pieces"), _("Jungle pieces")):
        assert {"auto", "traditional", "simplified", "letters"} <= set(offered[label])


# --- Jungle's usual ranks
def test_jungle_ranks_the_wolf_over_the_dog_by_default_as_chinese_rule_books_do():
    state = jungle.new_game({}, 0)
    assert state.ranks == "wolf_over_dog"
    assert jungle.can_take("W", jungle.sq_of(3, 3), "d", jungle.sq_of(3, 4),
                           jungle.RANKS_OF[state.ranks], state.traps)
    assert not jungle.can_take("D", jungle.sq_of(3, 3), "w", jungle.sq_of(3, 4),
                               jungle.RANKS_OF[state.ranks], state.traps)
    assert "wolf 4, dog 3" in jungle.RULES_TEXT and "dog over wolf" in jungle.RULES_TEXT


def test_setup_names_bots_and_hot_seat_players_so_any_language_can_say_them(h):
    """A name the arcade gives is kept in English and said in the language shown, so a game
    begun in English reads in Chinese later (its replay, its save)."""
    scene = h.app.push("setup", game_id="dots")
    for level in ("random", "easy", "normal", "hard"):
        name = scene._seat(level, "", "").name
        assert name in i18n.DEFAULT_NAMES
    i18n.set_language("zh_CN")
    assert i18n.person(scene._seat("easy", "", "").name) == "简单电脑"
    assert not latin(i18n.person("Player 1") + i18n.person("Hard bot"))


def test_the_continue_list_writes_each_side_in_the_languages_brackets(h):
    """'Ann（红方）', as every other screen writes a side, not 'Ann (红方)'."""
    saves.save(played("dots", 4, [Seat("human", "Ann"), Seat("ai", "Bot", "easy")]),
               "autosave dots 1")
    i18n.set_language("zh_CN")
    scene = h.app.push("continue")
    h.wait_until(lambda: not scene.loading and scene.entries)
    title, _line = scene.describe(scene.entries[0])
    assert "（" in title and "(" not in title and title.startswith("点格棋：Ann（"), title


@pytest.mark.parametrize("language, words", [
    ("zh_CN", ("斗兽棋：Ann（红方）", "第 4 步 · 保存于")),
    ("zh_TW", ("鬥獸棋：Ann（紅方）", "第 4 步 · 儲存於"))])
def test_the_load_list_says_a_saved_game_in_the_language_not_by_its_file_name(h, language,
                                                                              words):
    """A save made with Ctrl+S is named by the game's id and the time ("jungle 2026-11-27
    235753"): the list says the game, its players and its move, as Continue does."""
    match = played("jungle", 3, [Seat("human", "Ann"), Seat("ai", "Bot", "easy")])
    saves.save(match, "jungle 2026-11-27 235753")
    i18n.set_language(language)
    scene = h.app.push("loads")
    h.wait_until(lambda: not scene.loading and scene.entries)
    title, line = scene.describe(scene.entries[0])
    assert title.startswith(words[0]) and line.startswith(words[1]), (title, line)
    assert "jungle" not in title + line
    h.click_button(i18n._("Load (Enter)"))
    h.frames(2)
    loaded = h.app.top.match.moves  # that game (its bot, to move, may have answered)
    assert loaded[:len(match.moves)] == match.moves and len(loaded) <= len(match.moves) + 1


# --- wrapping: no line begins with closing punctuation or an ellipsis
@hypothesis.settings(max_examples=150, deadline=None)
@given(parts=st.lists(st.tuples(st.sampled_from(["正", "在", "连接", "等待", "玩家", "47暗",
                                                 "47", "暗棋"]),
                                st.sampled_from(["", "", "，", "。", "：", "）", "…", "……"])),
                      min_size=1, max_size=20),
       width=st.integers(60, 300))
def test_no_wrapped_chinese_line_begins_with_closing_punctuation(parts, width):
    """Chinese is broken between characters, never before "，。：）…" (a 繁體 status line left
    "…" alone on its second line): the character before it goes down with it, and where none
    can (a number as wide as the line: a CI run found "字 / 4747 / ，" at 60 px) the
    punctuation hangs past the line's end; nor is a last line one character alone ("由主机决 /
    定"), its closing punctuation aside ("牠要去的地 / 方。")."""
    pygame.init()
    text = "字" + "".join(a + b for a, b in parts)  # Chinese, so broken between characters
    lines = theme.wrap(text, width, 18)
    assert "".join(lines) == text
    for line in lines[1:]:
        assert line and line[0] not in "，。：）…", lines
    for line in lines:  # only punctuation hangs, and only after what could not be broken
        body = line.rstrip("，。：）…")
        assert theme.font(18).size(body)[0] <= width or body.isdigit(), (line, width)
    last = lines[-1].rstrip("，。：）…")  # its closing punctuation aside ("地 / 方。")
    if len(lines) > 1 and len(last) == 1:  # no character alone on the last line, unless
        assert lines[-2][-1] in "，。：）…" or len(lines[-2]) <= 2 or \
            lines[-2].isdigit(), lines  # it can't be helped (a number is never broken)


def test_a_crafted_save_in_the_load_list_is_said_in_the_language_and_fits_the_window(h):
    """A damaged file and one with a 200-letter name: the list says each was put aside in the
    player's language (it said 'not a save file (damaged or truncated: ExtraData)'), and the
    message stays inside the window."""
    folder = saves.saves_dir()
    (folder / "evil.pasave").write_bytes(b"\x93not a save" * 100)
    (folder / ("x" * 200 + ".pasave")).write_bytes(bytes(range(256)) * 8)
    i18n.set_language("zh_CN")
    scene = h.app.push("loads")
    h.wait_until(lambda: not scene.loading)
    said = [m for m, _until in h.app.toasts]
    assert any(m.startswith("“evil”无法读取") for m in said), said
    assert not any("damaged" in m or "ExtraData" in m for m in said), said
    width, height = h.app.size
    surface = pygame.Surface((width, height))
    h.app._draw_toasts(surface)
    rows = range(height - 240, height)  # where the toasts stand, above the footer
    assert any(surface.get_at((width // 2, y))[:3] == theme.INK[:3] for y in rows)  # drawn,
    assert not any(surface.get_at((x, y))[:3] == theme.INK[:3]  # and inside the window
                   for x in (0, width - 1) for y in rows)
    assert not scene.entries  # both set aside, neither offered


JUNK = b"\x93not an arcade file" * 60


def _damaged_replay():
    replay.replays_dir().mkdir(parents=True, exist_ok=True)
    (replay.replays_dir() / f"junk{replay.SUFFIX}").write_bytes(JUNK)
    return "junk", lambda h: h.app.push("replays")


def _lying_replay():
    """A replay the list can describe but that cannot be rebuilt: opening it says so."""
    game = Match("jungle", None, 3)
    game.play(game.legal_moves()[0])
    body = replay.replay_body(game)
    body["moves"] = [[99, 99, 99]]
    from game import storage
    path = replay.replays_dir() / f"liar{replay.SUFFIX}"
    storage.write_file(path, replay.KIND, replay.FORMAT, body)

    def act(h):
        scene = h.app.push("replays")
        h.wait_until(lambda: not scene.loading and scene.entries)
        scene.open_selected()
    return "liar", act


def _damaged_autosave(count: int):
    def make():
        for i in range(count):
            (saves.saves_dir() / f"{saves.AUTOSAVE}-{i}.pasave").write_bytes(JUNK)
        return f"{saves.AUTOSAVE}-0", lambda h: (h.app.pop(), h.app.push("title"),
                                                 h.app.top.continue_game())
    return make


def _damaged_named_save():
    (saves.saves_dir() / "mine.pasave").write_bytes(JUNK)
    return "mine", lambda h: h.app.push("loads")


def _damaged_stats():
    from game import stats
    stats.reset_for_tests()
    stats.path().parent.mkdir(parents=True, exist_ok=True)
    stats.path().write_bytes(JUNK)
    return "", lambda h: h.app.push("stats")


def _damaged_lan_save():
    """A LAN game left unfinished whose save is damaged: taking it up says so."""
    from client.scenes.lobby import LobbyScene
    from tests.fakes.ports import spare_port
    (saves.saves_dir() / "lan-friend.pasave").write_bytes(JUNK)
    return "", lambda h: h.app.push(LobbyScene(h.app, listen_port=spare_port(),
                                               take_up="lan-friend"))


@pytest.mark.parametrize("make", [_damaged_replay, _lying_replay, _damaged_autosave(1),
                                  _damaged_autosave(2), _damaged_named_save, _damaged_stats,
                                  _damaged_lan_save],
                         ids=["replay list", "replay opened", "Continue", "Continue list",
                              "Load list", "statistics", "LAN take-up"])
def test_a_damaged_file_is_told_of_in_the_players_language(h, make):
    """Wherever the arcade finds a file it cannot read, the player is told so in Chinese on a
    Chinese screen: the file's name may be Latin, no other word is (they read 'not a replay
    file (damaged or truncated: ExtraData) (set aside)' and 'Could not continue: …')."""
    saves.saves_dir().mkdir(parents=True, exist_ok=True)
    name, act = make()
    i18n.set_language("zh_CN")
    act(h)
    h.wait_until(lambda: h.app.toasts)  # a file is read off the loop: the message comes after
    scene = h.app.top
    if getattr(scene, "loading", False):
        h.wait_until(lambda: not scene.loading)
        h.frames(2)
    said = [m for m, _until in h.app.toasts]
    assert said, "nothing was said of the damaged file"
    for message in said:
        assert re.search(r"[\u4e00-\u9fff]", message), message
        assert not re.findall(r"[A-Za-z]{2,}", message.replace(name, "")), message


def test_damaged_settings_are_told_of_in_the_systems_language(monkeypatch):
    """The settings file is read as the arcade starts, so its damage is told in the system's
    language (it said 'Settings reset: not a settings file …' whatever the language)."""
    monkeypatch.setenv("LANGUAGE", "zh_CN")
    settings.path().parent.mkdir(parents=True, exist_ok=True)
    settings.path().write_bytes(JUNK)
    settings.reset_for_tests()
    harness = Harness((800, 560))
    try:
        said = [m for m, _until in harness.app.toasts]
        assert len(said) == 1 and re.search(r"[\u4e00-\u9fff]", said[0]), said
        assert not re.findall(r"[A-Za-z]{2,}", said[0]), said
        assert list(settings.path().parent.glob(f"{settings.path().name}.damaged-*"))
    finally:
        i18n.set_language("en")
        harness.close()


def _lobby(h):
    from client.scenes.lobby import LobbyScene
    from tests.fakes.ports import spare_port
    scene = LobbyScene(h.app, listen_port=spare_port())
    h.app.push(scene)
    i18n.set_language("zh_CN")
    return scene


def _only_chinese(message: str, allowed: str = "") -> None:
    assert re.search(r"[\u4e00-\u9fff]", message), message
    rest = message
    for part in allowed.split():
        rest = rest.replace(part, "")
    assert not re.findall(r"[A-Za-z]{2,}", rest), message


def test_joining_by_address_is_refused_in_the_players_language(h):
    """An empty or mistyped address, nobody hosting there, a host that says no: each is said
    in Chinese on a Chinese screen (they were 'no address given', '[Errno 111] Connection
    refused' and 'refused: Ann declined')."""
    from net import messages
    from net.hosting import Host, JoinFailed
    from tests.fakes.ports import spare_port
    scene = _lobby(h)
    for typed in ("", "a:b:c:d"):
        scene.address.value = typed
        scene.join_address()
        _only_chinese(h.app.toasts[-1][0], "host port")
    port = spare_port()
    scene.join(("127.0.0.1", port), None, None)  # nobody listens there
    h.wait_until(lambda: not scene.status)
    _only_chinese(h.app.toasts[-1][0])
    host = Host("ataxx", {}, 0, "127.0.0.1")
    try:  # a host that turns the guest away: its reason travels as a key and is said here
        hello = {"type": "hello", "protocol": "old", "version": "x", "game": None,
                 "options": None, "name": "G", "token": ""}
        import socket as socket_

        from net.link import encode, read_frame
        with socket_.create_connection(("127.0.0.1", host.port)) as s:
            s.sendall(encode(hello))
            s.settimeout(5)
            frame = read_frame(s)
        said = messages.refusal_said(frame)
        assert said.key == messages.OTHER_PROTOCOL
        _only_chinese(said.say(), "old paper arcade lan")  # the two protocols' names
        declined = messages.refused_frame(Text(messages.DECLINED, {"name": "Ann"}))
        _only_chinese(messages.refusal_said(declined).say(), "Ann")
        assert isinstance(JoinFailed(said), ConnectionError)
    finally:
        host.stop()


@hypothesis.settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["type", "reason", "key", "values", "text", "kind"]),
                       st.one_of(st.text(max_size=300), st.integers(), st.none(),
                                 st.dictionaries(st.text(max_size=30),
                                                 st.one_of(st.text(max_size=500), st.integers(),
                                                           st.booleans(), st.lists(st.integers())),
                                                 max_size=6))))
def test_a_hosts_refusal_is_said_whatever_it_holds(frame):
    """A modified peer may send any refusal or error frame: what this side says is a known
    key with short plain values, or the peer's English cleaned and cut; never a crash, never
    a long line (an unhashable key, {"reason": {}}, crashed the error frame's reading)."""
    from net import messages
    for said in (messages.refusal_said(frame), messages.said(frame)):
        words = said.say()
        assert isinstance(words, str) and len(words) <= 400
        if said.key in messages.REFUSALS:
            assert all(isinstance(v, (str, int)) and len(str(v)) <= 80
                       for v in said.params.values())


def test_a_lost_link_is_said_in_the_players_language():
    """The other program quits mid-game: the host's player is told in Chinese (it read
    '连接中断：the connection was lost'), on a real socket as on the memory link."""
    import socket as socket_

    from net.link import CLOSED, Link, LinkClosed
    from players.events import EventKind
    from tests.fakes.wire import memory_pair
    a, b = socket_.socketpair()
    near, far = Link(a, peer="near").start(), Link(b, peer="far").start()
    far.close("the guest's window was closed")
    closed = None
    for _tries in range(200):
        closed = near.wait(0.05)
        if isinstance(closed, LinkClosed):
            break
    assert isinstance(closed, LinkClosed) and closed["text"] == Text(CLOSED), closed
    h, g = memory_pair("ataxx", seed=5)
    g.link.close("the guest's window was closed")
    i18n.set_language("zh_CN")
    try:
        lost = [e for e in h.events() if e.kind is EventKind.PEER_LOST]
        assert len(lost) == 1
        _only_chinese(lost[0].text.say())
    finally:
        i18n.set_language("en")


def test_no_move_is_offered_while_the_other_player_is_away_and_a_late_one_is_said():
    """The other player's link is down and this side chose to wait: the board offers no move
    (it offered them all, and each was refused with 'the other player is not connected' in
    English)."""
    from players.base import Controller, HumanController
    from players.table import Table
    from tests.fakes.wire import memory_pair
    h, g = memory_pair("ataxx", seed=5)
    seat = h.seat
    controllers = [Controller(), Controller()]
    controllers[seat] = HumanController()
    table = Table(h.match, controllers, remote=h, io=lambda work: work())
    assert h.match.to_move() == seat and table.human_to_move() == seat
    g.link.close("gone")
    table.tick()
    assert not h.connected and table.human_to_move() is None
    i18n.set_language("zh_CN")
    try:
        refused = table.play(h.match.legal_moves()[0])
        assert refused is not None
        _only_chinese(refused.say())
    finally:
        i18n.set_language("en")
    assert not h.match.moves


_VALUE = st.one_of(st.text(max_size=250), st.integers(), st.booleans(), st.none(),
                   st.lists(st.integers(), max_size=3), st.floats())


@hypothesis.settings(max_examples=300, deadline=None)
@given(st.one_of(
    st.recursive(st.fixed_dictionaries({"key": st.text(max_size=60), "values": st.dictionaries(
        st.text(max_size=8), _VALUE, max_size=5)}),
        lambda inner: st.fixed_dictionaries({"key": st.text(max_size=60), "values":
                                             st.dictionaries(st.text(max_size=8), inner,
                                                             max_size=3)}), max_leaves=6),
    st.sampled_from([{"key": "{n:>999999999}", "values": {"n": 1}},
                     {"key": "{n.__class__.__mro__}", "values": {"n": "x"}},
                     {"key": "{n!r}{0}", "values": {"n": "x"}},
                     {"key": "{", "values": {}}]),
    _VALUE))
def test_words_read_from_a_file_are_said_safely_whatever_they_hold(data):
    """An ending's words are kept in saves and replays as a Text's data; a crafted file may
    hold anything there. What is read back is a Text whose every field is a plain name it
    fills (no format spec could make a billion-space line, no attribute could show the
    program's insides), or nothing."""
    text = Text.from_data(data)
    if text is None:
        return
    i18n.set_language("zh_CN")
    try:
        words = text.say()
    finally:
        i18n.set_language("en")
    assert len(words) <= 60 + 4 * 3 * (200 + 60) and len(text.english()) <= len(words) + 4000
    assert Text.from_data(text.to_data()) == text  # and it goes round again unchanged


def test_a_failed_program_is_said_in_the_language_with_its_own_words_kept():
    """A 'Program…' seat that fails: the loss is said in the player's language; what the
    program did wrong stays in its author's English, inside that sentence (it read 'program
    mybot cannot start …' alone)."""
    from game.rules import Termination
    from players.base import Controller, SeatFailure
    from players.driver import SeatDriver

    class Broken(Controller):
        def request(self, match, seat):
            pass

        def poll(self):
            raise SeatFailure("program mybot cannot start 'mybot --play': No such file")

    match = Match("ataxx", None, 3, [Seat("agent", "mybot"), Seat("human", "Ann")])
    driver = SeatDriver(match, [Broken(), Controller()])
    assert driver.poll() is None
    assert match.over and match.ending.termination is Termination.FAILURE
    i18n.set_language("zh_CN")
    try:
        said = match.outcome().words.say()
    finally:
        i18n.set_language("en")
    assert said.startswith("因故障判负") and "cannot start" in said, said


def test_a_save_on_a_full_disk_is_said_in_the_language(monkeypatch):
    """The system's own words for a full disk are English: the arcade says the errors a
    player meets itself (it read '无法保存：No space left on device')."""
    import errno

    from game import storage
    match = Match("ataxx", None, 3)

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(storage, "write_file", full)
    done: list = []
    saves.save_in_background(match, "mine", done).join(10)
    i18n.set_language("zh_CN")
    try:
        assert len(done) == 1
        _only_chinese(done[0].say())
        assert "磁盘已满" in done[0].say()
        for code in (errno.EACCES, errno.EROFS, errno.EADDRINUSE, errno.ENETUNREACH):
            _only_chinese(i18n.system_error(OSError(code, "English words")).say())
    finally:
        i18n.set_language("en")


def test_a_resignation_is_said_as_one_phrase():
    """'{name} ({side}) resigned' is one phrase in the catalogue: composing it from the seat's
    words put a space inside the Chinese ('Ann（红方） 认输')."""
    match = Match("ataxx", None, 3, [Seat("human", "Ann"), Seat("human", "Ben")])
    match.resign(0)
    i18n.set_language("zh_CN")
    try:
        said = match.outcome().words.say()
    finally:
        i18n.set_language("en")
    assert said.startswith("Ann（") and said.endswith("）认输") and " " not in said, said


def test_a_peer_that_breaks_the_protocol_is_said_so_in_the_language():
    """What this side found wrong stays in English for logs (`violation`); the player is told
    who broke the protocol in their language (it read '…违反了通信协议：move: …')."""
    from players.events import EventKind
    from tests.fakes.wire import memory_pair
    h, g = memory_pair("ataxx", seed=5)
    g.cut_off("move: a move for a seat it does not hold")
    assert "a seat it does not hold" in g.violation
    i18n.set_language("zh_CN")
    try:
        said = [e.text.say() for e in g.events() if e.kind is EventKind.NOTICE]
        assert said
        for words in said:
            _only_chinese(words, g.peer_name)
    finally:
        i18n.set_language("en")


def test_a_replays_folder_that_cannot_be_read_is_said_in_the_language(h, monkeypatch):
    """The folder itself refused (it read '无法读取文件夹：[Errno 13] Permission denied')."""
    import errno

    def refused(_game=None):
        raise PermissionError(errno.EACCES, "Permission denied")
    monkeypatch.setattr(replay, "list_replays", refused)
    i18n.set_language("zh_CN")
    scene = h.app.push("replays")
    h.wait_until(lambda: not scene.loading)
    _only_chinese(h.app.toasts[-1][0])


def _message_pixels(harness: Harness, size: tuple[int, int], words: str) -> list:
    """Where three messages (these words, a short one, one too long for the window) ink the
    window."""
    for message in (words, "短", "x" * 300):
        harness.app.toast(message)
    surface = pygame.Surface(size)
    surface.fill((255, 255, 255))
    harness.app._draw_toasts(surface)
    inked = [(x, y) for x in range(0, size[0], 4) for y in range(0, size[1], 2)
             if surface.get_at((x, y))[:3] == theme.INK[:3]]
    assert inked, "no message was drawn"
    return inked


@pytest.mark.parametrize("screen", ["replays", "loads", "stats", "settings", "rules", "setup"])
@pytest.mark.parametrize("size", [(800, 560), (1280, 800)])
def test_a_message_stands_clear_of_the_buttons_along_the_foot(screen, size):
    """A message about a file stood over Back and Delete at the window's foot."""
    harness = Harness(size)
    try:
        args = {"game_id": "dots"} if screen in ("rules", "setup") else {}
        scene = harness.app.push(screen, **args)
        harness.frames(2)
        assert scene.footer is not None and scene.footer.buttons
        inked = _message_pixels(harness, size, "“20261128-888888-junk”无法读取，已移到一旁")
        for button in scene.footer.buttons:
            assert not any(button.rect.collidepoint(p) for p in inked), button.label
    finally:
        harness.close()


@pytest.mark.parametrize("screen, groups", [("play", ("panel_buttons",)),
                                            ("review", ("nav", "side_buttons")),
                                            ("replay", ("buttons",))])
@pytest.mark.parametrize("size", [(800, 560), (1280, 800)])
def test_a_message_stands_clear_of_a_game_screens_buttons(screen, groups, size):
    """'A flip cannot be taken back' stood over the panel's Menu button for its seconds."""
    harness = Harness(size)
    try:
        match = played("banqi", 6, [Seat("human", "Ann"), Seat("human", "Ben")])
        if screen == "play":
            start_match(harness.app, match)
        else:
            harness.app.push(screen, match=match)
        harness.frames(3)
        scene = harness.app.top
        inked = _message_pixels(harness, size, "翻开的棋子不能悔棋")
        pressable = [b.rect for group in groups for b in getattr(scene, group).buttons]
        if screen == "replay":  # whose eyes to watch with (Banqi hides)
            pressable.append(scene.viewer_row.rect)
        for rect in pressable:
            assert not any(rect.collidepoint(p) for p in inked), rect
    finally:
        harness.close()


def test_a_failure_is_told_in_the_language_where_the_arcade_has_the_words(zh):
    """What the toasts 'Cannot start', 'Cannot host' and 'Could not read the folder' say."""
    from client.scenes.base import error_words
    from net.messages import NOT_OVER, Refused

    assert error_words(Refused(NOT_OVER)) == _(NOT_OVER) != NOT_OVER
    assert error_words(OSError(errno.ENOSPC, "No space left on device")) == _("the disk is full")
    assert not latin(error_words(PermissionError(errno.EACCES, "Permission denied", "x")))
    assert error_words(RulesError("bad seat 3")) == "bad seat 3"  # no words: the error's own


@pytest.mark.parametrize("reset", [True, False])
@pytest.mark.parametrize("language", ["en", "zh_CN", "zh_TW"])
def test_a_broken_link_is_said_without_saying_connection_twice(language, reset):
    """A reset link was said "Connection lost: the connection was lost" (连接中断：连接已断开),
    a closed one "Connection lost: the connection was closed" (连接中断：对方关闭了连接)."""
    import socket as socket_
    import struct

    from net.link import Link, LinkClosed
    server = socket_.create_server(("127.0.0.1", 0))
    b = socket_.create_connection(server.getsockname())
    a, _ = server.accept()
    server.close()
    near = Link(a, peer="far").start()
    if reset:  # as a cut-off peer gives
        b.setsockopt(socket_.SOL_SOCKET, socket_.SO_LINGER, struct.pack("ii", 1, 0))
    b.close()
    closed = None
    for _tries in range(200):
        closed = near.wait(0.05)
        if isinstance(closed, LinkClosed):
            break
    assert isinstance(closed, LinkClosed)
    i18n.set_language(language)
    try:
        said = Text("Connection lost: {reason}", {"reason": closed["text"]}).say()
        word = {"en": "connection", "zh_CN": "连接", "zh_TW": "連線"}[language]
        assert said.lower().count(word) == 1, said
        if language != "en":
            _only_chinese(said)
    finally:
        i18n.set_language("en")
