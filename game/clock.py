"""Game clocks for a two-player game at this computer: the time control chosen in setup and the
time each side has left. Pure bookkeeping: the play scene says whose clock runs; the time comes
from `now` (time.monotonic, or a fake clock in tests)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from game.i18n import N_


@dataclass(frozen=True)
class TimeControl:
    """Seconds each side starts with, and seconds added after each of its moves."""

    key: str
    label: str  # English; shown through _()
    seconds: float
    increment: float = 0.0


NO_CLOCK = "none"
CONTROLS: tuple[TimeControl, ...] = (
    TimeControl("5", N_("5 min"), 300.0),
    TimeControl("10+5", N_("10 min + 5 s"), 600.0, 5.0),
)
NO_CLOCK_LABEL = N_("No clock")
LOW_SECONDS = 30.0  # under this a side's time is drawn in red
MAX_SECONDS = 24 * 3600.0  # no stored time is believed beyond a day


def control(key: Any) -> TimeControl | None:
    """The time control of that key; None for no clock (or an unknown key)."""
    for c in CONTROLS:
        if c.key == key:
            return c
    return None


def choices() -> list[tuple[str, str]]:
    """(key, English label) for the setup row, no clock first."""
    return [(NO_CLOCK, NO_CLOCK_LABEL)] + [(c.key, c.label) for c in CONTROLS]


class GameClock:
    """Each seat's time left. `run(seat)` starts that seat's clock (None stops every clock);
    `moved(seat)` ends that seat's turn: its time is charged and the increment added."""

    def __init__(self, control: TimeControl, players: int = 2, left: list[float] | None = None,
                 now: Callable[[], float] = time.monotonic):
        self.control = control
        self.now = now
        self._left = list(left) if left is not None else [control.seconds] * players
        self.running: int | None = None
        self._since = 0.0  # when the running clock was last charged

    def _charge(self) -> float:
        t = self.now()
        if self.running is not None:
            seat = self.running
            self._left[seat] = max(0.0, self._left[seat] - max(0.0, t - self._since))
        self._since = t
        return t

    def run(self, seat: int | None) -> None:
        """Charge the running seat up to now, then let `seat`'s clock run (None: all stop)."""
        if seat == self.running:
            return
        self._charge()
        self.running = seat

    def moved(self, seat: int) -> None:
        """Seat has moved: its time is charged to now and, if its clock was running, the
        increment added (a move made off the clock, such as a setup, earns none)."""
        on_clock = self.running == seat
        self._charge()
        if on_clock and self._left[seat] > 0:
            self._left[seat] += self.control.increment

    def left(self, seat: int) -> float:
        """Seconds seat has left now (its running time included)."""
        base = self._left[seat]
        if seat == self.running:
            base -= max(0.0, self.now() - self._since)
        return max(0.0, base)

    def flagged(self) -> int | None:
        """The seat whose time has run out, if one has."""
        for seat in range(len(self._left)):
            if self.left(seat) <= 0.0:
                return seat
        return None

    def to_dict(self) -> dict:
        """What a save keeps: the control and the time left (the running seat is charged)."""
        return {"control": self.control.key, "left": [self.left(s) for s in range(len(self._left))]}

    @classmethod
    def from_dict(cls, d: Any, players: int = 2,
                  now: Callable[[], float] = time.monotonic) -> GameClock | None:
        """The clock a save kept; None if there is none or it is not a clock."""
        if not isinstance(d, dict):
            return None
        c = control(d.get("control"))
        left = d.get("left")
        if c is None or not isinstance(left, list) or len(left) != players:
            return None
        if not all(type(v) in (int, float) and math.isfinite(v) and 0 <= v <= MAX_SECONDS
                   for v in left):
            return None
        return cls(c, players, [float(v) for v in left], now)


def format_time(seconds: float) -> str:
    """A clock's face: 4:59, and tenths in the last ten seconds (0:09.4)."""
    seconds = max(0.0, seconds)
    if seconds < 10:
        tenths = math.floor(seconds * 10)
        return f"0:{tenths // 10:02d}.{tenths % 10}"
    whole = math.floor(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"
