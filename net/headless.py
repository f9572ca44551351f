"""LAN games without a window, a bot at the local seat: `main.py --host/--join --headless`.

Both sides print the same final result line. A peer that drops out has RESUME_WAIT seconds to
come back; then the game is claimed. The game is saved on both sides if it did not finish.
"""

from __future__ import annotations

import time

from ai.base import DEFAULT_SECONDS, check_level
from game import saves
from game.rules import Termination
from net.link import DEFAULT_PORT, parse_address
from net.session import Host, Session, join, lan_save_name, start_hosted, start_joined
from players.base import Controller
from players.bot import AIController
from players.driver import SeatDriver

RESUME_WAIT = 20.0
TICK = 0.005


def run_host(game: str, level: str, port: int = 0, options: dict | None = None,
             seed: int | None = None, on_listening=None) -> str:
    """Host GAME on port (0: any free port) with a bot at seat 0; the result line."""
    check_level(level)
    host = Host(game, options or {}, port)
    if on_listening is not None:
        on_listening(host.port)
    try:
        while (arrival := host.next_arrival()) is None:
            time.sleep(0.02)
        link, hello = arrival
        session = start_hosted(link, game, host.options, f"Bot ({level})",
                               hello["name"] or "Guest", seed=seed)
        session.server = host
        return _play(session, level)
    finally:
        host.stop()


def run_join(address: str, level: str, name: str = "") -> str:
    """Join the host at address with a bot; the result line."""
    check_level(level)
    where = parse_address(address, DEFAULT_PORT)
    link, welcome = join(where, None, None, name or f"Bot ({level})")
    session = start_joined(link, welcome)
    session.address = where
    return _play(session, level)


def _play(session: Session, level: str) -> str:
    bot = AIController(level, DEFAULT_SECONDS[level] if level != "random" else 0.0)
    seats = [Controller() for _ in session.match.seats]  # the peer's moves come over the link
    seats[session.seat] = bot
    driver = SeatDriver(session.match, seats, submit=session.submit,
                        forfeit=lambda seat, detail, why: session.resign(detail))
    lost_at: float | None = None
    try:
        while not session.match.over:
            for note in session.events():
                if note["type"] == "peer_lost" and lost_at is None:
                    lost_at = time.monotonic()
                    saves.save(session.match, lan_save_name(session.match))
                elif note["type"] == "ask":
                    note["on_no"]()
            if session.connected:
                lost_at = None
            elif time.monotonic() - (lost_at or time.monotonic()) > RESUME_WAIT:
                session.match.resign(session.peer_seat, "the other player did not come back",
                                     Termination.DISCONNECT)
                break
            driver.match = session.match  # a resume may have rebuilt it
            decision = driver.poll(may_ask=not session.waiting)
            if decision is not None and not session.waiting:
                driver.apply(decision.move)
            time.sleep(TICK)
        _finish(session)
        return session.match.result_line()
    finally:
        driver.close()


def _finish(session: Session) -> None:
    """Let the reveals cross, then say goodbye."""
    end = time.monotonic() + 2.0
    while session.connected and time.monotonic() < end and not session.verdict \
            and session.secret_expected():
        session.events()
        time.sleep(0.01)
    if session.verdict:
        print(session.verdict)
    if session.connected:
        session.close()
