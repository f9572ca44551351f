"""A LAN link that never hears from anyone: a play scene's session in screen tests."""

from __future__ import annotations

from typing import Any

from game.match import Match


class SilentRemote:
    """A players.table.Remote whose peer says nothing and takes every call silently."""

    def __init__(self, match: Match, seat: int = 0):
        self.match, self.seat, self.peer_seat = match, seat, 1 - seat
        self.connected = True
        self.waiting = False
        self.offers: dict[str, Any] = {}  # what it sends is never answered
        self.sent: list[tuple[str, Any]] = []

    def events(self) -> list:
        return []

    def save_extra(self) -> dict:
        return {}

    def submit(self, move: Any) -> None:
        self.sent.append(("move", move))

    def resign(self, reason: str = "") -> None:
        self.sent.append(("resign", reason))

    def offer_draw(self) -> bool:
        self.sent.append(("draw", None))
        self.offers["draw"] = len(self.match.moves)
        return True

    def request_takeback(self) -> bool:
        self.sent.append(("takeback", None))
        self.offers["takeback"] = len(self.match.moves)
        return True

    def offer_rematch(self) -> None:
        self.sent.append(("rematch", None))
        self.offers["rematch"] = len(self.match.moves)

    def chat(self, text: str) -> None:
        self.sent.append(("chat", text))

    def settled(self) -> bool:
        return True

    def close(self) -> None:
        self.connected = False
