"""Two LAN sessions over an in-memory link pair: no socket, no thread, no clock. Each frame goes
through the real codec (net.link.encode/decode), so what arrives is what a wire would carry, and
nothing arrives until the receiving side pumps: crossing messages are the tests' to make."""

from __future__ import annotations

from collections import deque

from game.i18n import Text
from net import session as lan
from net.link import CLOSED, LinkClosed, decode, encode


class MemoryLink:
    """One end of an in-memory link (what net.session.Session uses of net.link.Link)."""

    def __init__(self, peer: str = "memory"):
        self.peer = peer
        self.inbox: deque[dict] = deque()
        self.other: MemoryLink | None = None
        self.closed_reason: str | None = None
        self.closed_text: Text | None = None
        self._told_closed = False
        self.sent: list[dict] = []
        self.record_sent = True

    @property
    def open(self) -> bool:
        return self.closed_reason is None

    def send(self, message: dict) -> bool:
        if not self.open:
            return False
        frame = encode(message)
        if self.record_sent:
            self.sent.append(message)
        assert self.other is not None
        if self.other.open:
            self.other.inbox.append(decode(frame[4:]))
        return True

    def receive(self) -> dict | None:
        if self.inbox:
            return self.inbox.popleft()
        if self.closed_reason is not None and not self._told_closed:
            self._told_closed = True
            return LinkClosed(type="_closed", reason=self.closed_reason, text=self.closed_text)
        return None

    def close(self, reason: Text | str = "closed") -> None:
        """Close both ends: a TCP link closed on one side is closed on the other, which reads
        only that the connection was closed."""
        if self.closed_reason is None:
            self.closed_text = reason if isinstance(reason, Text) else Text(reason)
            self.closed_reason = self.closed_text.english()
            if self.other is not None:
                self.other.close(Text(CLOSED))


def link_pair() -> tuple[MemoryLink, MemoryLink]:
    a, b = MemoryLink("host"), MemoryLink("guest")
    a.other, b.other = b, a
    return a, b


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, t: float = 1000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


def memory_pair(game: str, options: dict | None = None, seed: int = 7,
                clock: Clock | None = None) -> tuple[lan.Session, lan.Session]:
    """A host and a guest session joined in memory; the deal (if any) has crossed."""
    a, b = link_pair()
    options = lan.check_lan_options(game, options or {})
    h = lan.start_hosted(a, game, options, "Host", "Guest", seed=seed)  # type: ignore[arg-type]
    welcome = b.receive()
    assert welcome is not None and welcome["type"] == "welcome"
    g = lan.start_joined(b, welcome)  # type: ignore[arg-type]
    for s in (h, g):
        s.now = clock or Clock()
    settle(h, g)
    return h, g


def settle(*sessions: lan.Session, rounds: int = 50) -> list:
    """Pump every session until nothing is in flight; the events they reported."""
    events: list = []
    for _ in range(rounds):
        if not any(s.link.inbox for s in sessions):
            break
        for s in sessions:
            events.extend(s.events())
    return events
