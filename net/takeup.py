"""A LAN game taken up from its save (`lan-<game>`) after its window closed, its program was
killed or the network dropped: the host listens again on the port it had and waits for the same
guest, the guest knocks at the host's address; each with its secrets from the save
(net/rejoin.py). The lobby calls `take_up`; nothing here draws."""

from __future__ import annotations

from game import saves, storage
from game.match import Match, Seat
from game.rules import RulesError
from net.hosting import Host
from net.link import DEFAULT_PORT
from net.session import Session

PREFIX = "lan-"


def lan_saves() -> list[saves.SaveEntry]:
    """The LAN games that can be taken up again, newest first."""
    return [e for e in saves.list_saves()
            if e.name.startswith(PREFIX) and isinstance(saves.read_extra(e.name).get("lan"), dict)]


def take_up(name: str, port: int | None = None) -> Session:
    """The session of the LAN game saved as `name`, waiting for the other side (a host
    listening on `port`, by default the one it had). ValueError or storage.FileError with the
    reason if it cannot be; OSError if the port cannot be had."""
    body = storage.read_file(saves.path_for(name), saves.KIND, saves.FORMAT)
    extra, record = body.get("extra"), body.get("match")
    lan = extra.get("lan") if isinstance(extra, dict) else None
    if not isinstance(lan, dict) or not isinstance(record, dict):
        raise ValueError("this save is not a LAN game that can be taken up")
    try:
        match = Match.from_record(record)
    except (RulesError, KeyError, TypeError, ValueError):
        if lan.get("host") is True:
            raise ValueError("the saved game cannot be rebuilt") from None
        # a fog guest's record is its views: the host's welcome brings the game back
        try:
            seats = [Seat.from_dict(s) for s in record["seats"]]
            match = Match(record["game"], record.get("options"), record.get("seed"), seats)
        except (RulesError, KeyError, TypeError, ValueError):
            raise ValueError("the saved game cannot be rebuilt") from None
    server = None
    if lan.get("host") is True:
        saved_port = lan.get("port")
        port = port if port is not None else (
            saved_port if type(saved_port) is int and 0 <= saved_port < 65536 else DEFAULT_PORT)
        server = Host(match.game_id, match.options, port)
    try:
        return Session.from_save(match, lan, server=server)
    except ValueError:
        if server is not None:
            server.stop()
        raise
