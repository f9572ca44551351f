"""The player's statistics: counted once when a game of theirs ends, kept on disk like settings
(a damaged or oversized file set aside with a message), shown per game and opponent; and the
play screen's mute button is a setting that outlives the session."""

import random

import msgpack
import pygame
import pytest

from client.scenes.base import start_match
from client.scenes.play import PlayScene
from client.scenes.result import ResultScene
from client.scenes.stats import StatsScene
from client.scenes.title import TitleScene
from game import saves, settings, stats, storage
from game.match import Match, Seat

VS_BOT = [Seat("human", "Ann"), Seat("ai", "Bot", "hard")]


def _reread() -> stats.Table:
    stats.reset_for_tests()
    return stats.snapshot()


# --- the counts
def test_a_run_of_wins_is_kept_and_a_draw_or_loss_ends_it():
    r = stats.Record()
    for result in ("won", "won", "lost", "won", "won", "won", "drawn", "won"):
        r.add(result)
    assert (r.won, r.drawn, r.lost, r.played) == (6, 1, 1, 8)
    assert (r.streak, r.best_streak) == (1, 3)
    with pytest.raises(ValueError):
        r.add("abandoned")


def test_solo_scores_keep_the_highest_and_lowest_and_a_total_merges_opponents():
    r = stats.Record()
    for score in (2400, 16000, 900):
        r.add("lost", score)
    assert (r.high, r.low) == (16000, 900)
    total = stats.Record(won=2, best_streak=2).merged(stats.Record(lost=1, best_streak=1))
    assert (total.played, total.best_streak) == (3, 2)


def test_counts_are_written_and_read_back():
    stats.record("ataxx", "hard", "won")
    stats.record("ataxx", "hard", "won")
    stats.record("ataxx", "lan", "drawn")
    stats.record("g2048", stats.SOLO, "lost", 5120)
    table = _reread()
    assert table["ataxx"]["hard"].won == 2 and table["ataxx"]["hard"].best_streak == 2
    assert table["ataxx"]["lan"].drawn == 1
    assert table["g2048"][stats.SOLO].high == 5120
    stats.forget()
    assert _reread() == {}


@pytest.mark.parametrize("data", [b"\x00not msgpack at all", b"\xc1" * 10,
                                  msgpack.packb({"kind": "settings", "format": 1, "body": {}})])
def test_a_damaged_file_is_set_aside_with_a_message_and_the_counts_start_afresh(data):
    stats.path().write_bytes(data)
    assert _reread() == {}
    problem = stats.take_problem()
    assert problem and problem.key.startswith("The statistics could not be read")
    assert stats.take_problem() is None  # said once
    assert not stats.path().exists()
    assert list(stats.path().parent.glob("stats.msgpack.damaged-*"))
    stats.record("dots", "easy", "won")  # and counting goes on in a new file
    assert _reread()["dots"]["easy"].won == 1


def test_an_oversized_file_is_refused_unread():
    body = {"games": {"ataxx": {"hard": {"junk": "x" * (stats.MAX_BYTES + 10)}}}}
    stats.path().write_bytes(storage.pack_file(stats.KIND, stats.FORMAT, body))
    assert _reread() == {}
    assert "too large" in stats.take_problem().params["error"]


def test_records_that_are_not_counts_are_dropped_and_the_rest_kept():
    good = {"won": 3, "drawn": 0, "lost": 1, "streak": 0, "best_streak": 2, "high": None,
            "low": None}
    body = {"games": {"ataxx": {"hard": good, "easy": dict(good, won=-1),
                                "normal": dict(good, lost="2"), "x" * 41: good},
                      "dots": ["not", "a", "mapping"], 7: {"hard": good}}}
    stats.path().write_bytes(storage.pack_file(stats.KIND, stats.FORMAT, body))
    table = _reread()
    assert list(table) == ["ataxx"] and list(table["ataxx"]) == ["hard"]
    assert table["ataxx"]["hard"].won == 3


# --- counted when a game ends
def _wait_for(h, game_id: str, opponent: str) -> stats.Record:
    h.wait_until(lambda: stats.snapshot().get(game_id, {}).get(opponent) is not None)
    return stats.snapshot()[game_id][opponent]


def test_a_finished_game_is_final_and_counted_once(h):
    start_match(h.app, Match("ataxx", None, 5, list(VS_BOT)))
    play = h.top
    assert isinstance(play, PlayScene)
    assert play.try_move(play.match.legal_moves()[0])
    play.match.resign(0)
    h.wait_until(lambda: isinstance(h.top, ResultScene), timeout=5)
    record = _wait_for(h, "ataxx", "hard")
    assert (record.won, record.lost) == (0, 1)
    h.click_button("Look at the board")
    undo = next(b for b in play.panel_buttons.buttons if b.label.startswith("Undo"))
    assert not undo.enabled  # the end is not taken back
    h.key(pygame.K_u, "u")
    assert play.match.over and not play.table.undo()
    h.frames(30)
    assert _reread()["ataxx"]["hard"].lost == 1


def test_a_solo_game_is_counted_with_its_score(h):
    match = Match("g2048", None, 3, [Seat("human", "Ann")])
    rng = random.Random(3)
    while not match.over:
        match.play(rng.choice(match.legal_moves()))
    start_match(h.app, match)
    record = _wait_for(h, "g2048", stats.SOLO)
    assert record.played == 1 and record.high == record.low == match.score()[0] > 0


def test_hot_seat_and_watched_games_are_nobodys_to_count(h):
    for seats in ([Seat("human", "Ann"), Seat("human", "Ben")],
                  [Seat("ai", "A", "easy"), Seat("ai", "B", "easy")]):
        start_match(h.app, Match("ataxx", None, 5, seats))
        play = h.top
        assert play.stats_entry() is None
        play.match.resign(0)
        h.frames(80)
    assert stats.snapshot() == {}


def test_a_game_autoplay_made_moves_in_is_not_counted_nor_its_best_kept(h):
    """Autoplay's 2048 or Fox Hunt is the bot's as much as the player's: before, its score went
    into the player's statistics and the board's Best, and a win was the player's."""
    settings.put("g2048_ai_ms", 20)
    match = Match("g2048", None, 8, [Seat("human", "Ann")])
    start_match(h.app, match)
    play = h.top
    h.click_button("Speed")
    h.click_button("Speed")  # fast
    h.click_button("Autoplay")
    # (the first merge may come later than the 4th move: the helper's moves depend on how deep
    # it searched in its 20 ms, so on the machine's load)
    h.wait_until(lambda: len(match.moves) >= 4 and play.board.score > 0, timeout=20)
    assert play.board.best == 0  # Best never rose
    match.resign(0)
    h.wait_until(lambda: isinstance(h.top, ResultScene), timeout=5)
    assert any("Autoplay made moves" in line for line in h.top.reason_lines)
    h.frames(80)
    assert _reread() == {} and settings.get("g2048_best") == 0


def test_a_continued_game_that_autoplay_helped_stays_uncounted(h):
    match = Match("g2048", None, 9, [Seat("human", "Ann")])
    match.play(match.legal_moves()[0])
    saves.save(match, "helped", extra={"helped": True})
    start_match(h.app, match, save_name="helped")
    play = h.top
    assert play.table.helped and play.stats_entry() is None and not play.board.counted
    assert play.save_extra()["helped"] is True  # and saved so again
    match.resign(0)
    h.frames(80)
    assert _reread() == {}


# --- the screen
def test_the_title_opens_statistics_per_game_and_opponent(h):
    stats.record("ataxx", "hard", "won")
    stats.record("ataxx", "easy", "lost")
    stats.record("ataxx", stats.LAN, "drawn")
    stats.reset_for_tests()
    h.click_button("Statistics")
    scene = h.top
    assert isinstance(scene, StatsScene)
    h.wait_until(lambda: scene.table is not None)
    assert [name for name, _ in scene.rows()] == ["AI Easy", "AI Hard", "Over the LAN",
                                                   "All opponents"]
    assert scene.rows()[-1][1].played == 3
    h.key(pygame.K_RIGHT)  # the next game: nothing played yet
    assert scene.game_id != "ataxx" and scene.rows() == []
    h.key(pygame.K_ESCAPE)
    assert isinstance(h.top, TitleScene)


def test_an_empty_game_page_says_which_games_count(h, monkeypatch):
    """After a Fox Hunt autoplay finished, the page said only "No finished games of Fox Hunt
    yet."."""
    from client.ui import theme
    drawn = []
    real = theme.text
    monkeypatch.setattr(theme, "text", lambda surface, s, *a, **k: (drawn.append(s),
                                                                    real(surface, s, *a, **k))[1])
    h.app.push("stats")
    scene = h.top
    h.wait_until(lambda: scene.table is not None)
    assert scene.rows() == []
    h.frame()
    assert "Only the games you play to the end yourself count." in drawn


def test_the_screen_says_when_the_file_was_set_aside(h):
    stats.path().write_bytes(b"\x00damaged")
    h.app.push("stats")
    h.wait_until(lambda: h.top.table is not None)
    h.frame()
    assert any("statistics could not be read" in text for text, _ in h.app.toasts)


# --- the mute button is a setting
def test_the_play_screens_mute_button_is_remembered_after_a_restart(h):
    start_match(h.app, Match("ataxx", None, 5, list(VS_BOT)))
    play = h.top
    assert settings.get("sound") is True
    h.click(play.mute_buttons.buttons[0].rect.center)
    assert settings.get("sound") is False and "off" in play.mute_buttons.buttons[0].label
    settings.save_now()
    settings.reset_for_tests()  # as after a restart: read from the file
    assert settings.get("sound") is False
    start_match(h.app, Match("ataxx", None, 6, list(VS_BOT)))
    assert "off" in h.top.mute_buttons.buttons[0].label


def test_enter_on_forget_all_statistics_keeps_them(h):
    """A question that loses something has its No focused: Enter (pressed to go on) keeps it."""
    stats.record("ataxx", "hard", "won")
    stats.reset_for_tests()
    h.click_button("Statistics")
    scene = h.top
    h.wait_until(lambda: scene.table is not None)
    scene.ask_forget()
    h.frame()
    h.key(pygame.K_RETURN)
    h.frame()
    assert h.top is scene and _reread()["ataxx"]["hard"].won == 1


def test_the_keys_move_between_the_game_row_and_the_buttons_with_one_focus(h):
    """One thing has the focus: Left/Right change the game until Down moves to the buttons
    (the Back button and the game row both showed a focus ring, and Enter pressed Back)."""
    h.click_button("Statistics")
    scene = h.top
    h.wait_until(lambda: scene.table is not None)
    first = scene.game_id
    h.key(pygame.K_RETURN)
    assert h.top is scene  # the row has the focus: Enter is not Back
    h.key(pygame.K_DOWN)
    h.key(pygame.K_RIGHT)
    assert scene.game_id == first  # on the buttons, Right moves among them
    h.key(pygame.K_UP)
    h.key(pygame.K_RIGHT)
    assert scene.game_id != first
    h.key(pygame.K_DOWN)
    h.key(pygame.K_LEFT)  # back from "Forget them all" to Back
    h.key(pygame.K_RETURN)
    assert isinstance(h.top, TitleScene)
