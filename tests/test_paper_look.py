"""The Paper Arcade look (issue 29): hover and focus drawn differently, the page's grain made
once per window size, ink lines that wobble the same way every frame, replay controls drawn as
icons that can be clicked, and the play and replay screens laid out inside the window, their
panels anchored to its edge, at the smallest window and at full HD."""

from __future__ import annotations

import random

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from client.scenes.base import start_match
from client.ui import paper, theme
from client.ui.widgets import Button, ButtonGroup, ChoiceRow
from game import i18n, registry
from game.match import Match, Seat
from tests.harness import Harness

SIZES = [(800, 560), (1920, 1080)]


def _played(game_id: str, plies: int) -> Match:
    seats = [Seat("human", "Ann"), Seat("ai", "Bot", "easy")][:registry.get(game_id).players]
    match = Match(game_id, None, 3, seats)
    rng = random.Random(3)
    for _ in range(plies):
        if match.over or match.setup_pending():
            break
        match.play(rng.choice(match.legal_moves()))
    return match


def _drawn(button: Button, **how) -> pygame.Surface:
    surface = pygame.Surface((220, 90))
    surface.fill(theme.PAPER)
    button.draw(surface, **how)
    return surface


def _same(a: pygame.Surface, b: pygame.Surface) -> bool:
    return pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")


def test_hover_and_focus_look_different():
    pygame.init()
    b = Button("Resign", lambda: None, rect=pygame.Rect(30, 20, 160, 44))
    plain = _drawn(b, focused=False, hovered=False)
    hover = _drawn(b, focused=False, hovered=True)
    focus = _drawn(b, focused=True, hovered=False)
    assert not _same(plain, hover) and not _same(plain, focus) and not _same(hover, focus)
    # focus is an ink ring outside the button; hover stays inside it
    ring_area = pygame.Rect(b.rect.x - 5, b.rect.y - 5, b.rect.width + 10, 4)
    dark = lambda s: sum(1 for x in range(ring_area.left, ring_area.right)  # noqa: E731
                         for y in range(ring_area.top, ring_area.bottom)
                         if sum(s.get_at((x, y))[:3]) < 300)
    assert dark(focus) > ring_area.width // 2
    assert dark(hover) == dark(plain) == 0


def test_the_labels_of_a_row_of_buttons_share_one_size(monkeypatch):
    """Two buttons of one height side by side, one label too long for the size the other
    takes: both are drawn at the size the long one fits (the review's "Previous mistake" and
    "Next mistake" were drawn at two sizes); an icon button keeps its icon."""
    pygame.init()
    sizes: dict[str, int] = {}
    real = theme.text
    monkeypatch.setattr(theme, "text", lambda surface, s, pos, size=20, *a, **k: (
        sizes.__setitem__(s, size), real(surface, s, pos, size, *a, **k))[1])
    group = ButtonGroup([Button("Previous mistake", lambda: None), Button("Next", lambda: None),
                         Button("", lambda: None, icon="play")], vertical=False)
    group.layout_row(10, 10, 130, 46, gap=8)
    group.draw(pygame.Surface((600, 80)), show_focus=False)
    long_fits = group.buttons[0].label_size()
    assert long_fits < group.buttons[1].label_size()  # the case: alone, they would differ
    assert sizes == {"Previous mistake": long_fits, "Next": long_fits}


def test_the_pointer_hovers_without_taking_the_keyboard_focus():
    pygame.init()
    group = ButtonGroup([Button(f"B{i}", lambda: None, rect=pygame.Rect(10, 10 + 50 * i, 160, 40))
                         for i in range(3)])
    group.focus = 0
    group.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=(50, 130), rel=(0, 0),
                                          buttons=(0, 0, 0)))
    assert group.focus == 0
    def page(hovered: int) -> pygame.Surface:
        surface = pygame.Surface((200, 200))
        surface.fill(theme.PAPER)
        for i, b in enumerate(group.buttons):
            b.draw(surface, focused=i == 0, hovered=i == hovered)
        return surface

    shown = pygame.Surface((200, 200))
    shown.fill(theme.PAPER)
    group.draw(shown)
    assert _same(shown, page(hovered=2))  # the first keeps the focus ring, the third is hovered
    assert not _same(shown, page(hovered=-1))
    group.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_DOWN, mod=0,
                                          unicode="", scancode=0))
    assert group.focus == 1


def test_a_resized_window_hovers_nothing_until_the_pointer_moves():
    """After a resize (F11, the window manager) the buttons are laid out anew and the pointer
    has not moved: the button that came under its old place showed its hover though the
    pointer was not over it (seen in the real window, the pointer still)."""
    pygame.init()
    group = ButtonGroup([Button(f"B{i}", lambda: None, rect=pygame.Rect(10, 10 + 50 * i, 160, 40))
                         for i in range(3)])
    group.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=(50, 130), rel=(0, 0),
                                          buttons=(0, 0, 0)))
    for i, b in enumerate(group.buttons):  # laid out for the new size
        b.rect = pygame.Rect(10, 110 + 50 * i, 160, 40)
    group.handle_event(pygame.event.Event(pygame.WINDOWSIZECHANGED, x=900, y=700))

    def drawn(hovered: int | None) -> pygame.Surface:
        surface = pygame.Surface((200, 300))
        surface.fill(theme.PAPER)
        if hovered is None:
            group.draw(surface, show_focus=False)
        else:
            for i, b in enumerate(group.buttons):
                b.draw(surface, hovered=i == hovered)
        return surface

    assert _same(drawn(None), drawn(-1)) and not _same(drawn(None), drawn(0))
    group.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=(50, 130), rel=(0, 0),
                                          buttons=(0, 0, 0)))
    assert _same(drawn(None), drawn(0))  # it moved: hovered again


def test_the_grain_is_made_once_per_window_size(monkeypatch):
    made = []
    real = paper._grain

    def counting(size, *args, **kwargs):
        made.append(size)
        return real(size, *args, **kwargs)

    monkeypatch.setattr(paper, "_grain", counting)
    paper.ground.cache_clear()
    paper.card_sheet.cache_clear()
    h = Harness((800, 560))
    try:
        h.frames(3)
        first = list(made)
        h.frames(20)
        assert made == first  # nothing made again while the window keeps its size
        assert first.count((800, 560)) == 1
    finally:
        h.close()


def _every_screen():
    yield lambda app: None
    yield lambda app: app.push("settings")
    yield lambda app: app.push("replays")
    yield lambda app: app.push("stats", game_id=registry.available()[0])
    for g in registry.available():
        yield lambda app, g=g: app.push("setup", game_id=g)
        yield lambda app, g=g: app.push("rules", game_id=g)
        yield lambda app, g=g: start_match(app, _played(g, 6))
        yield lambda app, g=g: app.push("replay", match=_played(g, 6))


def test_no_screen_makes_paper_frame_after_frame(monkeypatch):
    made = []
    real = paper._grain
    monkeypatch.setattr(paper, "_grain", lambda *a, **k: made.append(a[0]) or real(*a, **k))
    h = Harness((800, 560))
    try:
        for open_screen in _every_screen():
            h.app.close_all()
            h.app.running = True
            h.app.push("title")
            open_screen(h.app)
            h.frames(3)
            made.clear()
            h.frames(4)
            assert made == [], (type(h.top).__name__, made)
    finally:
        h.close()


def test_ink_lines_wobble_and_wobble_the_same_way_every_time():
    a, b = (10.0, 20.0), (410.0, 23.0)
    first = paper.wobble_points(a, b, 1.6)
    paper.wobble_points.cache_clear()
    assert paper.wobble_points(a, b, 1.6) == first
    assert first[0] == a and first[-1] == b
    assert max(abs(y - (20 + 3 * (x - 10) / 400)) for x, y in first) > 0.2  # not ruler-straight
    assert paper.wobble_points((10.0, 20.0), (410.0, 60.0), 1.6) != first
    ring = paper.ring_points((50.0, 50.0), 20.0, 1.4)
    assert all(17 < ((x - 50) ** 2 + (y - 50) ** 2) ** 0.5 < 23 for x, y in ring)


def test_stamps_are_made_once_and_keep_the_seat_colour():
    paper.stamp_image.cache_clear()
    surface = pygame.Surface((100, 100))
    surface.fill(theme.PAPER)
    for _ in range(5):
        paper.stamp(surface, theme.SEAT_COLORS[0], (50, 50), 30, outline=theme.INK)
    assert paper.stamp_image.cache_info().misses == 1
    r, g, b = surface.get_at((50, 40))[:3]
    assert r > g + 60 and r > b + 60  # still the red seat's ink


@pytest.mark.parametrize("name", paper.ICONS)
def test_every_icon_is_drawn_inside_its_box(name):
    surface = pygame.Surface((120, 80), pygame.SRCALPHA)
    box = pygame.Rect(30, 20, 56, 44)
    paper.icon(surface, name, box, theme.INK)
    inked = pygame.mask.from_surface(surface)
    inside = pygame.mask.Mask(surface.get_size())
    inside.draw(pygame.mask.Mask(box.size, fill=True), box.topleft)
    assert inked.count() > 80
    assert inked.count() == inked.overlap_area(inside, (0, 0))


def test_the_replay_controls_are_drawn_icons_that_work():
    h = Harness((800, 560))
    try:
        match = _played("ataxx", 12)
        h.app.push("replay", match=match)
        h.frames(2)
        scene = h.top
        icons = {b.icon: b for b in scene.buttons.buttons if b.icon}
        assert set(icons) == {"first", "previous", "play", "next", "last"}
        for b in icons.values():
            assert pygame.Rect((0, 0), h.app.size).contains(b.rect)
            assert b.rect.width >= 40 and b.rect.height >= 40  # a target a finger can hit
        h.click(icons["last"].rect.center)
        assert scene.ply == len(match.moves)
        h.click(icons["previous"].rect.center)
        assert scene.ply == len(match.moves) - 1
        h.click(icons["first"].rect.center)
        assert scene.ply == 0
        h.click(icons["next"].rect.center)
        assert scene.ply == 1
        h.click(icons["play"].rect.center)
        assert scene.playing and scene.buttons.buttons[2].icon == "pause"
        h.click(scene.buttons.buttons[2].rect.center)
        assert not scene.playing and scene.buttons.buttons[2].icon == "play"
    finally:
        h.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_play_and_replay_fill_the_window_with_anchored_panels(size):
    h = Harness(size)
    window = pygame.Rect((0, 0), size)
    try:
        for game_id in registry.available():
            h.app.close_all()
            h.app.running = True
            h.app.push("title")
            start_match(h.app, _played(game_id, 0))
            h.frames(2)
            scene = h.top
            side, board = scene.side, scene.board.rect
            assert window.contains(side) and window.contains(board), game_id
            assert side.right == window.right and side.bottom == window.bottom, game_id
            assert board.right <= side.x, game_id
            # the board takes the room the panel leaves
            assert board.width >= side.x - 40 and board.bottom >= window.bottom - 40, game_id
            for b in scene.panel_buttons.buttons:
                assert side.contains(b.rect), (game_id, b.label)
            h.app.push("replay", match=_played(game_id, 6))
            h.frames(2)
            replay = h.top
            assert replay.side.right == window.right and window.contains(replay.side)
            for b in replay.buttons.buttons:
                assert window.contains(b.rect) and b.rect.right <= replay.side.x, (game_id,
                                                                                    b.label)
    finally:
        h.close()


def test_the_panel_uses_the_room_of_a_wide_window():
    widths = {}
    for size in SIZES:
        h = Harness(size)
        try:
            start_match(h.app, _played("ataxx", 0))
            h.frames(2)
            widths[size] = (h.top.side.width, h.top.board.cell)
        finally:
            h.close()
    (small_side, small_cell), (wide_side, wide_cell) = widths[SIZES[0]], widths[SIZES[1]]
    assert wide_side > small_side and wide_cell > 1.5 * small_cell


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_no_board_draws_outside_the_window(size):
    """Each board drawn on a sheet larger than the window, the window placed in its middle:
    nothing of the board (its coordinates included) lands outside the window."""
    h = Harness(size)
    margin = 60
    try:
        for game_id in registry.available():
            h.app.close_all()
            h.app.running = True
            h.app.push("title")
            start_match(h.app, _played(game_id, 6))
            h.frames(2)
            board = h.top.board
            window = pygame.Rect((margin, margin), size)
            board.layout(board.rect.move(margin, margin))
            big = pygame.Surface((size[0] + 2 * margin, size[1] + 2 * margin))
            big.fill((255, 0, 255))
            board.draw(big)
            inked = pygame.mask.from_threshold(big, (255, 0, 255), (1, 1, 1, 255))
            inked.invert()
            inside = pygame.mask.Mask(big.get_size())
            inside.draw(pygame.mask.Mask(window.size, fill=True), window.topleft)
            outside = inked.count() - inked.overlap_area(inside, (0, 0))
            assert outside == 0, (game_id, outside, inked.get_bounding_rects())
    finally:
        h.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_settings_rows_stay_on_their_card(size):
    """However many settings the games declare, every row is on the card, none over another
    and none over the Done button (at 800x560 they go in two columns)."""
    h = Harness(size)
    try:
        h.app.push("settings")
        h.frames(2)
        scene = h.top
        rows = [r.rect for r in scene.rows]
        for i, r in enumerate(rows):
            assert scene.box.contains(r), (i, r, scene.box)
            assert not any(r.colliderect(o) for o in rows[i + 1:]), i
            assert not any(r.colliderect(b.rect) for b in scene.buttons.buttons), i
    finally:
        h.close()


LABELS = ["2048 bot (autoplay and hints)", "Fox Hunt bot (autoplay)", "Jungle animals",
          "獵狐電腦（自動）", "2048 輔助電腦", "Player name", "Hard AI time"]


@pytest.mark.parametrize("label", LABELS)
@pytest.mark.parametrize("height", [26, 34, 42, 52])
def test_a_form_rows_label_keeps_to_its_room_and_wraps_before_it_shrinks_small(label, height):
    """A row's label fits its room and its row; where one line would have to go below 13 px
    it takes two lines at a larger size if they fit (the settings page squeezed "2048 bot
    (autoplay and hints)" onto one line of 11 px, then wrapped it at that size)."""
    from client.ui.widgets import row_label_lines
    pygame.init()
    size = max(14, min(22, height // 2))
    for room in range(80, 300, 7):
        got, lines = row_label_lines(label, size, height, room)
        font = theme.font(got)
        assert all(font.size(line)[0] <= room for line in lines), (room, got, lines)
        assert len(lines) <= 2
        if len(lines) == 2:
            assert font.get_linesize() - 2 + font.get_height() <= height + 4, (room, got)
            for larger in range(got + 1, size + 1):  # and at the largest size two lines fit
                f = theme.font(larger)
                wrapped = theme.wrap(label, room, larger)
                assert len(wrapped) > 2 or any(f.size(t)[0] > room for t in wrapped) or \
                    f.get_linesize() - 2 + f.get_height() > height + 4, (room, got, larger)
        two = theme.wrap(label, room, 13)
        if got < 13:  # only where two lines of 13 px would not do
            assert len(two) > 2 or any(theme.font(13).size(t)[0] > room for t in two) or \
                theme.font(13).get_linesize() - 2 + theme.font(13).get_height() > height + 4


def _inked_columns(row, focused_label: str, size: tuple[int, int]) -> list[int]:
    """The columns of the row's band a focused row inks, drawn alone on plain paper."""
    saved, row.label = row.label, focused_label
    try:
        surface = pygame.Surface(size)
        surface.fill(theme.PAPER)
        row.draw(surface, True)
    finally:
        row.label = saved
    band = row.rect.inflate(0, -6)
    return [x for x in range(band.x, band.right)
            if any(surface.get_at((x, y))[:3] != theme.PAPER for y in range(band.y, band.bottom))]


@pytest.mark.parametrize("lang", ["en", "zh_CN", "zh_TW"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_focused_rows_label_keeps_clear_of_its_focus_ring(size, lang):
    """The label of the row with the keyboard's focus (bold) ends at least 4 px before the
    focus ring round its control (at 800x560 "Player name" ran into the name box's ring)."""
    from game import i18n
    i18n.set_language(lang)
    h = Harness(size)
    try:
        h.app.push("settings")
        h.frames(2)
        for row in h.top.rows:
            control = set(_inked_columns(row, "", size))
            label = [x for x in _inked_columns(row, row.label, size) if x not in control]
            assert label and min(control) - max(label) > 4, (row.label, max(label), min(control))
    finally:
        h.close()


def _panel_ink(h: Harness, name: str) -> pygame.Surface:
    h.app.close_all()
    h.app.running = True
    h.app.push("title")
    match = _played("ataxx", 0)
    match.seats[0].name = name
    start_match(h.app, match, time_control="5", now=lambda: 0.0)  # the clocks stand
    h.frames(2)
    return h.app.screen.copy()


def test_a_long_name_in_the_panel_stays_clear_of_its_clock():
    """The longest name a seat may have, wide letters, at the smallest window: the panel cuts
    it short of the clock instead of drawing it into it."""
    h = Harness(SIZES[0])
    try:
        short = _panel_ink(h, "A")
        long = _panel_ink(h, "W" * 40)
        scene = h.top
        clock_x = scene.side.right - 90
        changed = [x for x in range(scene.side.x, scene.side.right)
                   for y in range(scene.side.y, scene.side.y + 60)
                   if short.get_at((x, y)) != long.get_at((x, y))]
        assert changed and max(changed) < clock_x - 4
    finally:
        h.close()


@settings(max_examples=40, deadline=None)
@given(width=st.integers(150, 320), language=st.sampled_from(["en", "zh_CN", "zh_TW"]))
def test_a_spinners_words_keep_their_distance_from_its_arrows(width, language):
    """"随界面语言 (1/4)" ran up against the spinner's "<"; and Chinese writes its place
    among the choices in its own brackets."""
    pygame.init()
    i18n.set_language(language)
    try:
        choice = i18n._("Follow the language")
        row = ChoiceRow("Pieces", [(k, choice) for k in range(4)], 0)
        row.layout(pygame.Rect(0, 0, 120 + width, 44), 120)
        if row.spinner is None:
            return
        surface = pygame.Surface((120 + width, 44))
        surface.fill(theme.PANEL)
        row.draw(surface, False)
    finally:
        i18n.set_language("en")
    band = row.spinner.inflate(-4, -12)
    lit = [x for x in range(band.left, band.right)
           if any(sum(surface.get_at((x, y))[:3]) > 600 for y in range(band.top, band.bottom))]
    runs: list[list[int]] = []
    for x in lit:
        if runs and x == runs[-1][-1] + 1:
            runs[-1].append(x)
        else:
            runs.append([x])
    assert len(runs) >= 3, runs  # the arrows, and the words between them
    assert runs[1][0] - runs[0][-1] > 8 and runs[-1][0] - runs[-2][-1] > 8, (width, runs)
