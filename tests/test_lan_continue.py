"""A game saved over the LAN goes on at one computer when its file holds all the game needs:
the other side's seat becomes a bot or someone here; otherwise the screen says why not."""

import random

from client.scenes.base import start_match
from game import i18n, saves
from net.secrets import banqi, planes
from players.bot import AIController
from tests.harness import Harness
from tests.test_lan import local_move, pair, pump_until


def _saved(game, options=None, plies=12, seed=21):
    """Both sides' saves of a LAN game stopped after some plies, loaded again."""
    host, h, g = pair(game, options, seed=seed)
    try:
        rng = random.Random(seed)
        for _ in range(plies):
            pump_until([h, g], lambda: not h.waiting and not g.waiting
                       and len(h.match.moves) == len(g.match.moves))
            s = h if h.match.to_move() == h.seat else g
            s.submit(local_move(s, rng))
        pump_until([h, g], lambda: not h.waiting and not g.waiting
                   and len(h.match.moves) == len(g.match.moves))
        saves.save(h.match, "lan-host")
        saves.save(g.match, "lan-guest")
        return h.match, saves.load(saves.path_for("lan-host")), \
            saves.load(saves.path_for("lan-guest"))
    finally:
        h.close(), g.close(), host.stop()


def test_a_lan_banqi_save_is_dealt_anew_and_goes_on_against_a_bot():
    truth, hosted, joined = _saved("banqi")
    for m in (hosted, joined):
        assert m.state.board == truth.state.board  # every flip as both sides opened it
        file_deal = m.state.under
        reseeds = len(m.reseeds)
        assert banqi.SECRETS.local_continuation(m) == ""
        assert len(m.reseeds) == reseeds + 1 and m.reseeds[-1][0] == len(m.moves)
        assert sorted(m.state.under) == sorted(file_deal)  # the same pieces, dealt anew
        assert m.state.board == truth.state.board
    harness = Harness()
    start_match(harness.app, joined)
    harness.click_button("Continue here")
    harness.click_button("A bot")
    scene = harness.top
    assert type(scene).__name__ == "PlayScene" and scene.match is joined
    remote = 1 - joined.seats.index(next(s for s in joined.seats if s.kind == "human"))
    assert joined.seats[remote].kind == "ai"
    assert isinstance(scene.table.driver.controllers[remote], AIController)


def test_a_lan_banqi_save_goes_on_hot_seat():
    _, hosted, _ = _saved("banqi", seed=22)
    harness = Harness()
    start_match(harness.app, hosted)
    harness.click_button("Continue here")
    harness.click_button("Someone here")
    assert type(harness.top).__name__ == "PlayScene"
    assert [s.kind for s in hosted.seats] == ["human", "human"]


def test_a_lan_planes_save_without_the_other_layout_says_it_cannot_go_on():
    _, hosted, joined = _saved("planes", plies=6, seed=23)
    for m in (hosted, joined):
        assert "hidden" in m.state.layouts
        why = planes.SECRETS.local_continuation(m)
        assert "never in this file" in why
        harness = Harness()
        start_match(harness.app, m)
        assert type(harness.top).__name__ == "ConfirmScene"
        assert harness.top.message == "This game cannot go on at one computer"
        assert "never in this file" in harness.top.detail
        harness.click_button("OK")
        assert type(harness.top).__name__ not in ("PlayScene", "ConfirmScene")
    harness = Harness()
    i18n.set_language("zh_CN")  # and why is said in the player's language
    try:
        start_match(harness.app, hosted)
        assert "从未存进" in harness.top.detail, harness.top.detail
    finally:
        i18n.set_language("en")


def test_a_lan_game_with_nothing_hidden_goes_on_here():
    truth, hosted, _ = _saved("ataxx", plies=4, seed=24)
    assert hosted.moves == truth.moves
    harness = Harness()
    start_match(harness.app, hosted)
    harness.click_button("Continue here")
    harness.click_button("A bot")
    assert type(harness.top).__name__ == "PlayScene"
