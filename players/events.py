"""What happens at a table, as typed events the client draws (and headless runs print)."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from game.i18n import Text


class EventKind(enum.Enum):
    MOVED = "moved"  # a move was played: animate it, play its sound
    REFRESH = "refresh"  # the position or who sees it changed without a move (undo, a resume)
    NOTICE = "notice"  # a line to show for a moment (a toast)
    CHAT = "chat"  # a chat line said or heard over the LAN: shown for a moment, and kept
    ASK = "ask"  # a question for the local player, answered once
    WITHDRAWN = "withdrawn"  # an ASK's question can no longer be answered: close its dialog
    PEER_LOST = "peer lost"  # the LAN link is gone mid-game: wait, or claim the game
    NEW_MATCH = "new match"  # a rematch or a resume replaced the match
    ENDED = "ended"  # the game is over; the end-of-game work is done


@dataclass(frozen=True)
class Question:
    """A yes/no question; the answer is given once, through on_yes or on_no."""

    text: Text
    detail: Text
    yes: Text
    no: Text
    on_yes: Callable[[], None]
    on_no: Callable[[], None] | None = None
    # polled while the question is shown (a LAN question: the link is kept serviced); False
    # when it can no longer be answered, and its dialog closes
    still_open: Callable[[], bool] | None = None


@dataclass(frozen=True)
class Event:
    kind: EventKind
    text: Text | None = None
    move: Any = None
    question: Question | None = None
    fields: dict[str, Any] = field(default_factory=dict)
