"""Game clocks: none, 5 min, 10 min + 5 s for two-player games at this computer, set in setup,
shown for both sides, a flag fall losing on time, kept across save and Continue, stopped while
something covers the game. Time comes from a fake clock: nothing sleeps."""

import math

import pygame
import pytest

from client.scenes.base import start_match
from client.scenes.dialog import ConfirmScene, HandoverScene
from client.scenes.play import PlayScene
from client.scenes.result import ResultScene
from client.scenes.setup import SetupScene
from game import saves, settings, storage
from game.clock import CONTROLS, GameClock, control, format_time
from game.match import Match, Seat
from game.rules import Termination
from players.base import Controller, HumanController
from tests.fakes.cancel import frozen_clock
from tests.fakes.remote import SilentRemote
from tests.fakes.wire import Clock

TWO = [Seat("human", "Ann"), Seat("human", "Ben")]
FIVE = control("5")
TEN_FIVE = control("10+5")


class Silent(Controller):
    """A seat that thinks for ever (a slow bot or program)."""

    @property
    def thinking(self) -> bool:
        return True


def _clocked(h, match: Match, time_control: str = "5", controllers=None) -> tuple[PlayScene,
                                                                                   Clock]:
    if controllers is None:
        start_match(h.app, match, time_control=time_control)
    else:
        h.app.push("play", match=match, controllers=controllers, time_control=time_control)
    play = h.top
    assert isinstance(play, PlayScene) and play.clock is not None
    fake = Clock()
    play.clock.now = fake
    return play, fake


# --- the clock itself
def test_the_running_seat_is_charged_and_the_increment_follows_its_move():
    fake = Clock()
    clock = GameClock(TEN_FIVE, now=fake)
    clock.run(0)
    fake.t += 12.5
    assert clock.left(0) == pytest.approx(587.5) and clock.left(1) == 600
    clock.moved(0)
    clock.run(1)
    assert clock.left(0) == pytest.approx(592.5)
    fake.t += 100
    clock.run(None)  # stopped: time passes, nobody is charged
    fake.t += 1000
    assert clock.left(1) == pytest.approx(500) and clock.flagged() is None


def test_a_move_off_the_clock_earns_no_increment_and_a_flag_falls_at_zero():
    fake = Clock()
    clock = GameClock(TEN_FIVE, now=fake)
    clock.moved(0)  # a setup, made while no clock ran
    assert clock.left(0) == 600
    clock.run(1)
    fake.t += 600.01
    assert clock.flagged() == 1 and clock.left(1) == 0
    clock.moved(1)  # too late: no increment brings a fallen flag back
    assert clock.flagged() == 1


def test_a_kept_clock_is_checked_before_it_is_believed():
    good = GameClock(FIVE, left=[12.0, 250.5]).to_dict()
    assert GameClock.from_dict(good).left(1) == 250.5
    for bad in (None, [], {"control": "3"}, {"control": "5", "left": [1.0]},
                {"control": "5", "left": [1.0, math.nan]}, {"control": "5", "left": [1.0, -2]},
                {"control": "5", "left": [1.0, "2"]}, {"control": "5", "left": [1.0, 1e12]},
                {"control": "5", "left": [True, 3]}):
        assert GameClock.from_dict(bad) is None, bad


def test_the_clock_face():
    assert format_time(300) == "5:00"
    assert format_time(299.99) == "4:59"
    assert format_time(61) == "1:01"
    assert format_time(9.46) == "0:09.4"
    assert format_time(-1) == "0:00.0"
    assert [c.seconds for c in CONTROLS] == [300, 600] and TEN_FIVE.increment == 5


# --- in the play scene
def test_a_flag_fall_in_hot_seat_loses_on_time_and_the_card_says_so(h):
    play, fake = _clocked(h, Match("ataxx", None, 5, list(TWO)))
    h.frame()
    assert play.clock.running == 0
    fake.t += 10
    assert play.try_move(play.match.legal_moves()[0])
    h.frame()
    assert play.clock.running == 1
    fake.t += 299
    h.frame()
    assert not play.match.over and play.clock.left(1) == pytest.approx(1)
    fake.t += 1.5
    h.frame()
    out = play.match.outcome()
    assert out.termination is Termination.TIME and out.winner == 0
    h.wait_until(lambda: isinstance(h.top, ResultScene), timeout=5)
    h.settle()
    assert h.top.reason == "Out of time"  # a line of its own: a capital
    h.click_button("Look at the board")  # a fallen flag is not taken back
    assert not [b for b in h.find_buttons() if b.label.startswith("Undo") and b.enabled]


def test_a_bots_thinking_time_counts(h):
    match = Match("ataxx", None, 5, [Seat("human", "Ann"), Seat("ai", "Bot", "easy")])
    play, fake = _clocked(h, match, controllers=[HumanController(), Silent()])
    h.frame()
    fake.t += 4
    assert play.try_move(match.legal_moves()[0])
    assert play.clock.left(0) == pytest.approx(296)
    h.frame()
    assert play.clock.running == 1
    fake.t += 300
    h.frame()
    out = match.outcome()
    assert out.termination is Termination.TIME and out.winner == 0


def test_the_clocks_stop_while_a_dialog_covers_the_game(h):
    play, fake = _clocked(h, Match("ataxx", None, 5, list(TWO)))
    h.frame()
    fake.t += 10
    play.ask_resign()
    h.frame()
    assert isinstance(h.top, ConfirmScene)
    fake.t += 1000  # far past the flag, had it run
    h.key(pygame.K_n)
    h.frame()
    assert h.top is play and not play.match.over
    assert play.clock.left(0) == pytest.approx(290)


def test_planes_clocks_wait_for_the_setup_and_stop_behind_the_hand_over(h):
    from tests.test_scenes_hotseat import _take_the_computer
    match = Match("planes", None, 5, list(TWO))
    start_match(h.app, match, time_control="5")
    play = h.app.find(PlayScene)
    fake = Clock()
    play.clock.now = fake
    import random

    from ai.base import Budget
    for seat in (0, 1):
        _take_the_computer(h)
        fake.t += 500  # setting up is not on the clock
        layout = match.info.ai_module().choose_setup(match.view(seat),
                                                     Budget(1.0, now=frozen_clock()), "easy",
                                                     random.Random(seat))
        assert play.try_move(layout)
        h.key(pygame.K_SPACE, " ")
    _take_the_computer(h)
    h.frame()
    assert play.clock.running == 0 and play.clock.left(0) == 300
    fake.t += 20
    assert play.try_move(match.legal_moves()[0])
    play.end_reveal()
    h.frame()
    assert isinstance(h.top, HandoverScene)
    fake.t += 1000  # the computer is being passed over: nobody's clock runs
    h.key(pygame.K_RETURN)
    h.frame()
    assert play.clock.left(0) == pytest.approx(280) and play.clock.left(1) == 300
    assert play.clock.running == 1


def test_clocks_survive_leaving_and_continue_in_the_saves_extra_fields(h):
    play, fake = _clocked(h, Match("ataxx", None, 5, list(TWO)), "10+5")
    h.frame()
    fake.t += 30
    assert play.try_move(play.match.legal_moves()[0])  # +5 s
    h.frame()
    fake.t += 100
    h.frame()
    name = play.save_name
    play.on_quit()  # the window closes: saved at once
    body = storage.read_file(saves.path_for(name), saves.KIND, saves.FORMAT)
    assert body["extra"]["clock"]["control"] == "10+5"
    assert body["extra"]["clock"]["left"] == pytest.approx([575, 500])
    assert "clock" not in body["match"] and "clock" not in body["match"]["options"]
    h.app.pop_to("title")
    title = h.top
    title.enter()
    title.continue_game()
    h.wait_until(lambda: h.top is not title)  # read off the loop
    resumed = h.top
    assert isinstance(resumed, PlayScene) and resumed is not play
    assert resumed.time_control == "10+5"
    assert [resumed.clock.left(s) for s in (0, 1)] == pytest.approx([575, 500])


def test_setup_starts_the_chosen_clock_remembers_it_and_a_rematch_keeps_it(h):
    h.app.push("setup", game_id="ataxx")
    setup = h.top
    assert isinstance(setup, SetupScene)
    setup.opponent.select([v for v, _ in setup.opponent.choices].index("human"))
    setup.clock.select([v for v, _ in setup.clock.choices].index("5"))
    h.click_button("Start")
    play = h.top
    assert isinstance(play, PlayScene) and play.clock.control.key == "5"
    assert settings.get("last_setup")["ataxx"]["clock"] == "5"
    play.match.resign(0)
    h.wait_until(lambda: isinstance(h.top, ResultScene), timeout=5)
    h.settle()
    h.click_button("Rematch")
    again = h.top
    assert isinstance(again, PlayScene) and again is not play and again.clock.control.key == "5"
    assert again.clock.left(0) == pytest.approx(300, abs=5)  # a fresh clock


def test_no_clock_is_the_default_and_none_is_offered_over_the_lan_or_for_one_player(h):
    h.app.push("setup", game_id="ataxx")
    assert h.top.clock.value == "none"
    h.app.push("setup", game_id="g2048")
    assert h.top.clock is None
    match = Match("ataxx", None, 5, [Seat("human", "Ann"), Seat("remote", "Ben")])
    lan = PlayScene(h.app, match, [HumanController(), Controller()], session=SilentRemote(match),
                    time_control="5")
    assert lan.clock is None
    assert PlayScene(h.app, Match("ataxx", None, 5, list(TWO)), [HumanController()] * 2,
                     time_control="none").clock is None
