"""What the other arcade says, made fit for the screen where it arrives: its player's name in
its hello, its chat lines and error texts (game/text.clean_text: no U+0000, control character
or lone surrogate; names cut to NAME_MAX, lines to LINE_MAX). net/session.py calls these where
each message is taken in."""

from __future__ import annotations

from typing import Any

from game.text import LINE_MAX, NAME_MAX, clean_text

CHAT_MAX = 200  # characters of one chat line (net/session.py's own limit)


def peer_name(value: Any, default: str = "Guest") -> str:
    """A peer's player name as it may be shown and stored: cleaned, at most NAME_MAX
    characters; default if nothing is left of it."""
    return clean_text(value, NAME_MAX) or default


def peer_line(value: Any, limit: int = LINE_MAX) -> str:
    """A chat line, an error text or a reason from the peer: one clean line of at most limit
    characters."""
    return clean_text(value, limit)


def clean_hello(message: dict) -> dict:
    """A guest's hello with its name made fit (the host's Accept dialog, its peer_name, the
    seat name in the record and the result line all take it from here)."""
    return {**message, "name": peer_name(message.get("name"))}
