"""LAN games without a window, a bot at the local seat: `main.py --host/--join --headless`.

Both sides print the same final result line. A peer that drops out, in any phase and on either
side's turn, has a claim's time (game.match.CLAIM_AFTER) to come back (the guest knocks again
with its token); then the game is claimed, as a person's Claim would. The game is saved on both
sides if it did not finish; a save that fails is reported and the wait goes on. A verdict on the
peer's secret (a reveal that did not come or did not check: the game is the peer's loss) is
printed before the result line.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from ai.base import DEFAULT_SECONDS, check_level
from game import saves
from net.link import DEFAULT_PORT, parse_address
from net.session import (
    REVEAL_WAIT,
    Host,
    Session,
    join,
    lan_save_name,
    start_hosted,
    start_joined,
)
from players.base import Controller
from players.bot import AIController
from players.events import EventKind
from players.table import Table

TICK = 0.005
sleep = time.sleep  # the loop's pause (tests move an injected clock instead)


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


def _play(session: Session, level: str, now: Callable[[], float] = time.monotonic) -> str:
    """Drive the LAN game at a table with the bot at this side's seat, until it ends; the game
    left unfinished is saved, a finished one (a claimed win too) leaves no save behind."""
    chosen = check_level(level)
    bot = AIController(level, DEFAULT_SECONDS[chosen] if level != "random" else 0.0)
    seats = [Controller() for _ in session.match.seats]  # the peer's moves come over the link
    seats[session.seat] = bot
    session.now = now
    table = Table(session.match, seats, remote=session, records=False, now=now)
    saved = False
    try:
        while not table.match.over:
            for event in table.tick():
                question, text = event.question, event.text
                if event.kind is EventKind.ASK and question is not None and question.on_no:
                    question.on_no()
                elif event.kind is EventKind.NOTICE and session.violation and text is not None:
                    print(text.english(), file=sys.stderr)
            if session.connected:
                saved = False
            elif not saved:  # lost in any phase, however it was noticed
                saved = True
                _save(session, table)
            elif table.claim():  # gone as long as a claim needs, as a person's Claim
                break
            sleep(TICK)
        saves.remove(lan_save_name(session.match))  # over: nothing to go on with
        _finish(session, now)
        return session.match.result_line()
    finally:
        for c in seats:
            c.close()


def _save(session: Session, table: Table) -> None:
    try:  # with what a restart needs to take the game up again
        saves.save(session.match, lan_save_name(session.match), extra=table.save_extra())
    except Exception as exc:  # a full disk must not end the wait for the other player
        print(f"the game could not be saved: {exc}", file=sys.stderr)


def _finish(session: Session, now: Callable[[], float] = time.monotonic) -> None:
    """Let the reveals cross (a missing one is settled by the session's deadline), then say
    goodbye."""
    end = now() + REVEAL_WAIT + 1.0
    session.events()
    while now() < end and not session.verdict and session.secret_expected():
        session.events()
        sleep(0.01)
    if not session.closed:
        session.close()  # a reveal still owed by a peer that is away is settled now
    if session.verdict:
        print(session.verdict)
