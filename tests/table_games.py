"""Whole games of every registered game driven through players.table.Table with no window:
hot-seat between two people (each seeing only what the table lets it), a loopback LAN game
between two tables, and a demo of bots. Run as `python -m tests.table_games`; it exits non-zero
if a game did not end, a seat saw what it may not, or pygame was imported on the way.
"""

from __future__ import annotations

import random
import sys
import threading
import time

from ai.base import Budget, decide_setup
from game import registry
from game.match import Match, Seat
from net.session import Host, join, lan_games, start_hosted, start_joined
from players.base import Controller, Decision, HumanController
from players.bot import AIController
from players.table import Table, play_out
from tests.fakes.cancel import frozen_clock
from tests.fakes.wire import Clock

MAX_STEPS = 20_000


def hot_seat(game: str, seed: int) -> Match:
    """People at one computer (one for a solo game), each moving only when the table says so
    and from the view it gives; the view given is always the viewer's own."""
    rng = random.Random(seed)
    players = registry.get(game).players
    match = Match(game, None, seed, [Seat("human", f"P{i}") for i in range(players)])
    table = Table(match, [HumanController() for _ in range(players)], records=False,
                  now=lambda: 0.0)
    for _ in range(MAX_STEPS):
        if match.over:
            break
        table.tick()
        if table.revealing:
            table.end_reveal()
        seat = table.handover_seat()
        if seat is not None:
            assert table.sight().view is None, "a hand is shown during the hand-over"
            table.take_seat(seat)
        sight = table.sight()
        assert sight.viewer is not None and sight.view == match.view(sight.viewer)
        if match.setup_pending():
            move = decide_setup(game, sight.view, "random", Budget(0.0, now=frozen_clock()), rng)
        else:
            move = rng.choice(sight.legal)
        assert table.play(move) is None
    table.tick()
    assert match.over, f"{game}: hot-seat game did not end"
    return match


class RandomSeat(Controller):
    """A seat that picks at random from its own view at once, on the loop: the LAN game below
    tests the tables and the link, not the bot process (the demo does)."""

    def __init__(self, seed: int):
        self.rng, self.decision = random.Random(seed), None

    def request(self, match: Match, seat: int) -> None:
        if match.setup_pending():
            move = decide_setup(match.game_id, match.view(seat), "random",
                                Budget(0.0, now=frozen_clock()), self.rng)
        else:
            move = self.rng.choice(match.legal_moves())
        self.decision = Decision(move)

    def poll(self) -> Decision | None:
        decision, self.decision = self.decision, None
        return decision

    def cancel(self) -> None:
        self.decision = None


def lan(game: str, seed: int) -> tuple[Match, Match]:
    """A host table and a guest table on loopback, a random seat at each side."""
    host = Host(game, {}, 0, "127.0.0.1")
    got: dict = {}
    knock = threading.Thread(target=lambda: got.update(
        r=join(("127.0.0.1", host.port), game, host.options, "Guest")))
    knock.start()
    while (arrival := host.next_arrival()) is None:
        time.sleep(0.005)
    link, hello = arrival
    h = start_hosted(link, game, host.options, "Host", hello["name"], seed=seed)
    knock.join(10)
    g = start_joined(*got["r"])
    clock = Clock()  # the sessions' clock: each pass of the loop below is 10 ms of it
    h.now = g.now = clock
    tables = []
    for s in (h, g):
        seats: list[Controller] = [Controller(), Controller()]
        seats[s.seat] = RandomSeat(seed + s.seat)
        tables.append(Table(s.match, seats, remote=s, records=False))
    try:
        for _ in range(MAX_STEPS * 10):
            for t in tables:
                t.tick()
            if all(t.match.over for t in tables) and h.settled() and g.settled():
                break
            clock.t += 0.01
            time.sleep(0.001)
        assert h.match.over and g.match.over, f"{game}: LAN game did not end"
        assert h.match.outcome() == g.match.outcome(), f"{game}: the two sides disagree"
        return h.match, g.match
    finally:
        for t in tables:
            t.close()
        host.stop()


def demo(game: str, seed: int) -> Match:
    players = registry.get(game).players
    match = Match(game, None, seed, [Seat("ai", f"Bot {i}", "random") for i in range(players)])
    play_out(match, [AIController("random", 0.0, seed=seed + i) for i in range(players)])
    assert match.over, f"{game}: demo did not end"
    return match


def main() -> int:
    games = sys.argv[1:] or registry.available()
    for i, game in enumerate(games):
        hot_seat(game, 11 + i)
        demo(game, 21 + i)
        if game in lan_games():
            lan(game, 31 + i)
        print(f"{game}: hot-seat, demo" + (", LAN" if game in lan_games() else ""))
    assert "pygame" not in sys.modules, "pygame was imported below the client"
    print("pygame imported: no")
    return 0


if __name__ == "__main__":
    sys.exit(main())
