"""LAN games without a window, a bot at the local seat: `main.py --host/--join --headless`.

Both sides print the same final result line. A peer that drops out has RESUME_WAIT seconds to
come back; then the game is claimed. The game is saved on both sides if it did not finish.
"""

from __future__ import annotations

import time

from ai.base import DEFAULT_SECONDS, check_level
from game import saves
from game.seats import AIController, SeatFailure
from net.link import parse_address
from net.session import Host, Session, join, start_hosted, start_joined

DEFAULT_PORT = 47475
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
        return _play(session, level, host)
    finally:
        host.stop()


def run_join(address: str, level: str, name: str = "") -> str:
    """Join the host at address with a bot; the result line."""
    check_level(level)
    where = parse_address(address, DEFAULT_PORT)
    link, welcome = join(where, None, None, name or f"Bot ({level})")
    return _play(start_joined(link, welcome), level, None, where)


def _play(session: Session, level: str, host: Host | None,
          address: tuple[str, int] | None = None) -> str:
    bot = AIController(level, DEFAULT_SECONDS[level] if level != "random" else 0.0)
    asked: tuple[int, int] | None = None
    lost_at: float | None = None
    try:
        while not session.match.over:
            for note in session.events():
                if note["type"] == "peer_lost" and lost_at is None:
                    lost_at = time.monotonic()
                    saves.save(session.match, f"lan {session.match.game_id}")
                elif note["type"] == "ask":
                    note["on_no"]()
            if not session.connected:
                lost_at = _reconnect(session, host, address, lost_at)
                continue
            m = session.match
            if m.to_move() == session.seat and not session.waiting:
                key = (len(m.moves), session.seat)
                if asked != key:
                    bot.request(m, session.seat)
                    asked = key
                try:
                    decision = bot.poll()
                except SeatFailure as exc:
                    session.resign()
                    m.resign(session.seat, str(exc))
                    break
                if decision is not None:
                    session.submit(decision.move)
            time.sleep(TICK)
        _finish(session)
        return session.match.result_line()
    finally:
        bot.close()


def _reconnect(session: Session, host: Host | None, address, lost_at: float | None) -> float:
    lost_at = lost_at or time.monotonic()
    if time.monotonic() - lost_at > RESUME_WAIT:
        session.match.resign(session.peer_seat, "the other player did not come back")
        return lost_at
    if host is not None:
        arrival = host.next_arrival()
        if arrival is not None:
            link, hello = arrival
            if hello.get("token") == session.token:
                session.resume(link)
                return None
            link.send({"type": "refused", "reason": "a game is in progress"})
            link.close("refused")
        time.sleep(0.05)
        return lost_at
    try:
        link, welcome = join(address, session.match.game_id, session.match.options, "",
                             session.token, wait=5.0)
    except (ConnectionError, OSError):
        time.sleep(1.0)
        return lost_at
    session.resume(link, welcome)
    return None


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
