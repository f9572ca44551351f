"""English, 简体中文 and 繁體中文: complete catalogues, kept placeholders, every screen drawn in
each language inside the window, and the numbers and dates Babel would write."""

import datetime as dt
import re
import string
from pathlib import Path

import pygame
import pytest
from babel.messages import pofile

from client.scenes.base import start_match
from client.ui import theme
from game import i18n, registry, settings
from game.i18n import N_, Text, result_words
from game.match import Match, Seat
from game.rules import Outcome, Termination
from tests.fakes.cancel import frozen_clock
from tests.harness import Harness
from tests.test_scenes_layout import _fits, _played, _rows, _screens

LANGS = i18n.LANGUAGES[1:]
POT = i18n.LOCALE_DIR / "messages.pot"


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.set_language("en")


def catalogue(lang: str):
    with (i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return pofile.read_po(f, locale=lang)


def fields(s: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(s) if name is not None}


@pytest.mark.parametrize("lang", LANGS)
def test_every_catalogue_is_complete_and_keeps_its_placeholders(lang):
    with POT.open("rb") as f:
        template = {m.id for m in pofile.read_po(f) if m.id}
    cat = catalogue(lang)
    ids = {m.id for m in cat if m.id}
    assert template <= ids, sorted(template - ids)[:5]
    for m in cat:
        if not m.id:
            continue
        singular = m.id if isinstance(m.id, str) else m.id[0]
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        assert not m.fuzzy and all(strings), singular
        for s in strings:
            assert fields(s) == fields(singular), (singular, s)
            assert s.startswith("# ") == singular.startswith("# "), singular  # rules headings
        for bold in (False, True):
            assert theme.missing_glyphs("".join(strings), bold) == "", singular


def test_the_compiled_catalogues_are_current():
    for lang in LANGS:
        po = i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"
        mo = po.with_suffix(".mo")
        assert mo.is_file() and mo.stat().st_mtime >= po.stat().st_mtime - 1
        i18n.set_language(lang)
        for m in catalogue(lang):
            if m.id and isinstance(m.id, str):
                said = i18n.pgettext(m.context, m.id) if m.context else i18n._(m.id)
                assert said == m.string, (m.context, m.id)


def test_every_game_text_the_screens_show_is_in_the_catalogues():
    with POT.open("rb") as f:
        ids = {m.id for m in pofile.read_po(f)}
    for game_id in registry.available():
        rules = registry.get(game_id).rules
        texts = [rules.TITLE, rules.TAGLINE, *i18n.paragraphs(rules.RULES_TEXT)]
        texts += [o.label for o in rules.OPTIONS] + [c for o in rules.OPTIONS for _, c in o.choices]
        assert {t for t in texts if any(ch.isalpha() for ch in t)} <= ids, game_id
    assert {t.text for t in Termination} <= ids


def test_game_names_in_each_script():
    names = {}
    for lang in i18n.LANGUAGES:
        i18n.set_language(lang)
        names[lang] = [i18n._(registry.get(g).title) for g in ("planes", "banqi", "dots")]
    assert names["zh_CN"] == ["炸飞机", "暗棋", "点格棋"]
    assert names["zh_TW"] == ["炸飛機", "暗棋", "點格棋"]
    assert names["en"][2] == "Dots and Boxes"


@pytest.mark.parametrize("env, expected", [
    ({"LANGUAGE": "zh_TW:en", "LANG": "en_US.UTF-8"}, "zh_TW"),
    ({"LANG": "zh_CN.UTF-8"}, "zh_CN"),
    ({"LC_ALL": "zh_HK.UTF-8", "LANG": "en_GB.UTF-8"}, "zh_TW"),
    ({"LANG": "zh-Hant-TW"}, "zh_TW"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LANGUAGE": "fr:zh_CN"}, "zh_CN"),
    ({"LANG": "C"}, "en"),
])
def test_system_language_from_the_environment(env, expected):
    assert i18n.system_language(env, lambda: (None, None)) == expected


def test_system_language_from_the_process_locale_when_no_variable_is_set():
    assert i18n.system_language({}, lambda: ("Chinese (Simplified)_China", "936")) == "en"
    assert i18n.system_language({}, lambda: ("zh_TW", "UTF-8")) == "zh_TW"
    assert i18n.system_language({}, lambda: (None, None)) == "en"


def test_numbers_dates_and_times_as_babel_writes_them():
    babel_dates = pytest.importorskip("babel.dates")
    babel_numbers = pytest.importorskip("babel.numbers")
    for lang in i18n.LANGUAGES:
        i18n.set_language(lang)
        for n in (0, 7, 1234, 1234567):
            assert i18n.format_number(n) == babel_numbers.format_decimal(n, locale=lang)
        assert i18n.format_percent(0.42) == babel_numbers.format_percent(0.42, locale=lang)
        for hour in range(24):
            for minute in (0, 5, 30):
                when = dt.datetime(2025, 3, 12, hour, minute)
                assert i18n.format_time(when) == babel_dates.format_time(when, "short",
                                                                         locale=lang)
        when = dt.datetime(2025, 12, 1, 9, 5)
        assert i18n.format_date(when) == babel_dates.format_date(when, "medium", locale=lang)
        pattern = babel_dates.get_datetime_format("medium", locale=lang)
        expected = pattern.replace("{1}", babel_dates.format_date(when, "medium", locale=lang)) \
            .replace("{0}", babel_dates.format_time(when, "short", locale=lang))
        assert i18n.format_datetime(when) == expected


def test_plurals_follow_the_language():
    i18n.set_language("en")
    assert i18n.ngettext("{n} move", "{n} moves", 1).format(n=1) == "1 move"
    assert i18n.ngettext("{n} move", "{n} moves", 3).format(n=3) == "3 moves"
    i18n.set_language("zh_CN")
    assert i18n.ngettext("{n} move", "{n} moves", 1).format(n=1) == "1 步"
    assert i18n.ngettext("{n} move", "{n} moves", 3).format(n=3) == "3 步"


def test_an_outcome_detail_written_by_the_rules_is_shown_in_the_language():
    out = Outcome(1, (0, 5), Termination.NO_MOVES,
                  Text(N_("{seat} has no legal move"), {"seat": Text("red")}))
    assert i18n.outcome_reason(out) == out.reason == "red has no legal move"
    i18n.set_language("zh_CN")
    assert i18n.outcome_reason(out) == "红方无棋可走"
    assert out.reason == "red has no legal move"  # the English line stays English
    i18n.set_language("zh_TW")
    assert i18n.outcome_reason(Outcome(0, (9,), Termination.ALL_FOUND, Text(
        N_("every fox found in {n} probes"), {"n": 23}))) == "23 次探測找到了所有狐狸"
    assert i18n.outcome_reason(Outcome(None, (1, 1), Termination.AGREED_DRAW)) == "雙方同意和棋"
    # words no catalogue knows stay as they are rather than vanish
    assert i18n.outcome_reason(Outcome(None, (1, 1), Termination.SCORE, Text("odd"))) == "odd"


def test_every_outcome_the_rules_write_is_data_in_the_catalogues():
    """Each game's ending words are a catalogue key with values, never English prose."""
    import random

    from game.match import Match
    with POT.open("rb") as f:
        ids = {m.id for m in pofile.read_po(f)}
    for game_id in registry.available():
        rng = random.Random(1)
        for seed in range(3):
            m = Match(game_id, None, seed)
            while not m.over:
                if m.setup_pending():
                    from ai.base import Budget, decide_setup
                    m.play(decide_setup(game_id, m.view(m.to_move()), "random",
                                        Budget(0.0, now=frozen_clock()), rng))
                else:
                    m.play(rng.choice(m.legal_moves()))
            words = m.outcome().words
            assert isinstance(words, Text) and words.key in ids, (game_id, words)
            for value in words.params.values():
                assert not isinstance(value, str) or value.isdigit(), (game_id, words)


def test_the_rules_page_shows_every_paragraph_translated():
    i18n.set_language("zh_TW")
    for game_id in registry.available():
        text = registry.get(game_id).rules.RULES_TEXT
        shown = i18n.translate_text(text)
        assert len(i18n.paragraphs(shown)) == len(i18n.paragraphs(text))
        assert theme.has_cjk(shown), game_id


def test_language_switch_in_settings_applies_at_once():
    h = Harness((800, 560))
    try:
        h.app.push("title")
        h.frames(1)
        h.app.push("settings")
        h.frames(1)
        row = next(r for r in _rows(h.top) if r.label == "Language")
        row.select([v for v, _ in row.choices].index("zh_TW"))
        h.frames(1)
        assert i18n.language() == "zh_TW" and settings.get("language") == "zh_TW"
        assert any(r.label == "語言" for r in _rows(h.top))
        assert [b.label for b in h.find_buttons()] == ["完成"]
        h.top.back()
        h.frames(1)
        assert "設定" in [b.label for b in h.find_buttons()]  # the title built again
    finally:
        settings.put("language", "")
        h.app.close_all()
        h.close()


def _all_screens():
    yield from _screens()
    for g in registry.available():
        yield f"{g} rules", lambda app, g=g: app.push("rules", game_id=g)
        yield f"{g} result", lambda app, g=g: (start_match(app, _played(g, 400)),
                                               app.push("result", play=app.top))
        yield f"{g} mid-game", lambda app, g=g: start_match(app, _played(g, 6))
    yield "quit", lambda app: app.top.back()
    yield "hand over", lambda app: start_match(app, Match(
        "planes", None, 5, [Seat("human", "Ann"), Seat("human", "Ben")]))


@pytest.mark.parametrize("lang", LANGS)
def test_every_screen_in_each_language_stays_inside_its_boxes(lang, monkeypatch):
    """Each screen at the smallest window: every line of text inside the window, every button's
    and chip's label inside it, the play panel's status lines inside the panel."""
    drawn: list[tuple[str, pygame.Rect]] = []
    real_text = theme.text

    def recording(surface, s, pos, size=20, color=theme.INK, bold=False, anchor="topleft"):
        rect = real_text(surface, s, pos, size, color, bold, anchor)
        if surface.get_size() == h.app.size:
            drawn.append((s, rect))
        return rect

    monkeypatch.setattr(theme, "text", recording)
    h = Harness((800, 560))
    problems = []
    try:
        window = pygame.Rect((0, 0), h.app.size)
        for name, open_screen in _all_screens():
            h.app.close_all()
            h.app.running = True
            i18n.set_language(lang)
            h.app.push("title")
            open_screen(h.app)
            h.frames(2)
            drawn.clear()
            h.frames(1)
            for s, rect in drawn:
                if s.strip() and not window.contains(rect):
                    problems.append(f"{name}: {s!r} outside the window {rect}")
            for b in h.find_buttons():
                if not _fits(b.label, b.rect.width - 12):
                    problems.append(f"{name}: {b.label!r} does not fit its button")
            for row in _rows(h.top):
                for chip, (_, label) in zip(row.chips, row.choices):
                    if not row.rect.contains(chip) or not _fits(label, chip.width - 6):
                        problems.append(f"{name}: {row.label!r} chip {label!r} squeezed")
            side = getattr(h.top, "side", None)
            if side is not None and hasattr(h.top, "status_lines"):
                width = side.width - 14
                for line in h.top.status_lines:
                    if theme.font(17).size(line)[0] > width:
                        problems.append(f"{name}: status {line!r} wider than the panel")
    finally:
        h.app.close_all()
        h.close()
    assert problems == []


def test_chinese_wraps_without_spaces():
    line = "点一格进行探测。数字表示它所在的行、列和两条对角线上共有几只狐狸。" * 2
    lines = theme.wrap(line, 200, 17)
    assert len(lines) > 2 and "".join(lines) == line
    assert all(theme.font(17).size(x)[0] <= 200 for x in lines)
    assert not any(x.startswith(("，", "。", "、", "：")) for x in lines)


def test_the_code_marks_strings_only_through_the_i18n_module():
    # `_` must never be rebound locally where gettext's `_` is imported (a silent crash).
    root = Path(__file__).resolve().parent.parent
    for path in (root / "game").rglob("*.py"):
        src = path.read_text(encoding="utf-8")
        if re.search(r"from game\.i18n import .*\b_\b", src):
            assert not re.search(r"^\s*(\w+, )?_ = |^\s*\w+, _ = ", src, re.M), path


@pytest.mark.parametrize("game", [g for g in registry.available() if registry.get(g).rules.HIDDEN
                                  or g == "banqi"])
def test_a_replays_views_are_named_in_good_english_and_in_chinese(game):
    """The replay's Watch row names each seat's view: "Your view" for the player called You
    (the row said "You's view" and "You (first)'s view"), a typed name's view otherwise."""
    players = registry.get(game).players
    seats = [Seat("human", "You"), Seat("human", "Ann")][:players]
    match = Match(game, None, 1, seats)
    side = registry.get(game).rules.SEAT_NAMES[0]
    own = i18n.view_title(match, 0)
    assert own == ("Your view" if players == 1 else f"Your view ({side})")
    if players > 1:
        other = registry.get(game).rules.SEAT_NAMES[1]
        assert i18n.view_title(match, 1) == f"Ann ({other})'s view"
    i18n.set_language("zh_CN")
    assert i18n.view_title(match, 0).startswith("你的视角")


def test_a_one_player_result_reads_as_a_result_not_more_than():
    """The replay list said "over 1,196 points" for a 2048 game that ended at 1,196."""
    solo, two = registry.get("g2048").rules, registry.get("ataxx").rules
    assert result_words(solo, None, (1196,), "points") == "game over at 1,196 points"
    assert result_words(solo, 0, (26,), "probes") == "won with 26 probes"
    assert result_words(two, 1, (6, 7), "stones", "resigned") == "o wins 7-6 stones (resigned)"
    i18n.set_language("zh_CN")
    try:
        assert result_words(solo, None, (1196,), "points") == "结束，得分 1,196"
    finally:
        i18n.set_language("en")


def test_a_win_is_not_given_a_count_that_does_not_explain_it():
    """"first wins 14-14 pieces left (resigned)", "red wins 3-5 animals left (den)": a count
    level with or below the loser's is left out; a draw keeps its count."""
    banqi, jungle = registry.get("banqi").rules, registry.get("jungle").rules
    assert result_words(banqi, 0, (14, 14), "pieces left", "resigned") == "first wins (resigned)"
    assert result_words(jungle, 1, (5, 3), "animals left", "den") == "blue wins (den)"
    assert result_words(jungle, 1, (3, 5), "animals left", "den") == \
        "blue wins 5-3 animals left (den)"
    assert result_words(banqi, None, (10, 12), "pieces left", "agreed") == \
        "draw 10-12 pieces left (agreed)"
