"""The LAN session's message table: every type a peer may send, its fields, and the phase and
side it may come in. `refusal` is the one check every message passes before a handler runs;
what it returns is a Text (a catalogue key and its values), never prose.

A message that is merely late (a move, an offer or an answer that crossed the end of the game
on the wire) is `STALE`: dropped without an answer, since the end itself is on its way to the
sender. Anything else refused is answered with an error frame that carries the same key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.i18n import N_, Text
from game.rules import RulesError
from net.peer_text import peer_line

FieldTypes = Mapping[str, type | tuple[type, ...]]

# Every message type the peer may send, with its required fields and their types. A game's own
# types come from its Secrets.FIELDS. Extra fields are allowed (a game's hooks read them).
MESSAGES: dict[str, FieldTypes] = {
    "move": {"ply": int}, "resign": {"ply": int}, "draw_offer": {"ply": int},
    "draw_reply": {"accept": bool, "ply": int}, "takeback": {"ply": int},
    "takeback_reply": {"accept": bool, "ply": int}, "rematch": {},
    "rematch_reply": {"accept": bool}, "new_game": {"seed": int}, "chat": {"text": str},
    "reveal": {}, "error": {"text": str}, "bye": {},
}
# what a refused message is called to the player (a game's own message types: "a message")
KIND_WORDS = {"move": N_("move"), "resign": N_("resignation"), "draw_offer": N_("draw offer"),
              "draw_reply": N_("answer to a draw offer"), "takeback": N_("takeback"),
              "takeback_reply": N_("answer to a takeback"), "rematch": N_("rematch"),
              "rematch_reply": N_("answer to a rematch"), "new_game": N_("new game"),
              "chat": N_("chat line"), "reveal": N_("reveal")}
REQUIRED_VALUE = {"move": ("move",)}  # fields that must be present, of any type
ANY_TIME = {"chat", "error", "bye"}
WHILE_PLAYING = {"move", "draw_offer", "draw_reply", "takeback", "takeback_reply"}
AFTER_END = {"reveal", "rematch", "rematch_reply", "new_game"}
REPLIES = {"draw_reply": "draw", "takeback_reply": "takeback", "rematch_reply": "rematch"}

STALE = Text(N_("it crossed the end of the game"))  # dropped quietly (a repeat too)

# The refusals, as keys a peer's arcade can say in its own player's language.
UNKNOWN = N_("unknown message")
BAD_FIELD = N_("its {field!r} is missing or of the wrong type")
NOT_OVER = N_("the game is not over")
NO_OFFER = N_("no such offer is pending")
NO_REMATCH = N_("no rematch was agreed")
REFUSED = N_("{kind} refused: {reason}")
WRONG_PLY = N_("move for ply {ply}, but this game is at ply {now}")
NOT_YOUR_TURN = N_("not your turn")
KNOWN_KEYS = {UNKNOWN, BAD_FIELD, NOT_OVER, NO_OFFER, NO_REMATCH, REFUSED, WRONG_PLY,
              NOT_YOUR_TURN}


class Refused(RulesError):
    """A message refused by a handler, with its reason as a Text."""

    def __init__(self, key: str, **params: Any):
        self.text: Text = Text(key, params)
        super().__init__(self.text.english())


def refusal(message: dict, game_fields: Mapping[str, FieldTypes], *, over: bool,
            offers: Mapping[str, int], host: bool, rematch_agreed: bool,
            reveal_due: bool) -> Text | None:
    """Why this message may not come now (None if it may): its type, its fields, its phase."""
    kind = message.get("type")
    fields = MESSAGES.get(kind) if kind in MESSAGES else game_fields.get(kind)  # type: ignore
    if fields is None:
        return Text(UNKNOWN)
    for name, types in fields.items():
        value = message.get(name)
        if not isinstance(value, types) or (types is int and type(value) is bool):
            return Text(BAD_FIELD, {"field": name})
    for name in REQUIRED_VALUE.get(kind, ()):  # type: ignore[arg-type]
        if name not in message:
            return Text(BAD_FIELD, {"field": name})
    if kind in ANY_TIME or kind == "resign":  # a resignation at any time: the end merges it
        return None
    if kind in game_fields or kind in WHILE_PLAYING:
        if over and not (kind == "draw_reply" and "draw" in offers):  # an end: merged
            return STALE
    elif kind in AFTER_END and not over:
        return Text(NOT_OVER)
    if kind in REPLIES and REPLIES[kind] not in offers:
        return Text(NO_OFFER)
    if kind == "new_game" and (host or not rematch_agreed):
        return Text(NO_REMATCH)
    if kind == "reveal" and not reveal_due:  # e.g. the one checked, sent again on a resume
        return STALE
    return None


# Why a host turns a guest away: the "refused" frame's key (its values are plain)
NOT_HELLO = N_("the first message must be a hello")
OTHER_PROTOCOL = N_("the other arcade speaks LAN protocol {theirs}, this one {ours}")
OTHER_VERSION = N_("Paper Arcade {theirs} cannot play with Paper Arcade {ours}")
OTHER_GAME = N_("the host now plays another game")
OTHER_OPTIONS = N_("the game options do not match the host's")
NO_NAME = N_("a hello without a name or token")
TOO_MANY = N_("too many connections at once")
QUEUE_FULL = N_("too many players are waiting to be let in")
DECLINED = N_("{name} declined")
IN_A_GAME = N_("this host is in a game")
REFUSALS = {NOT_HELLO, OTHER_PROTOCOL, OTHER_VERSION, OTHER_GAME, OTHER_OPTIONS, NO_NAME,
            TOO_MANY, QUEUE_FULL, DECLINED, IN_A_GAME}


def refused_frame(reason: Text) -> dict:
    """The frame a host turns a guest away with: English, and the key with its values so the
    guest's arcade can say it in its player's language."""
    return {"type": "refused", "reason": reason.english()[:200], "key": reason.key,
            "values": {k: _plain(v) for k, v in reason.params.items()}}


def refusal_said(message: dict) -> Text:
    """A host's refusal as a Text: its key if it is one this arcade knows, else its English
    reason, cleaned."""
    key, values = message.get("key"), _clean(message.get("values"))
    if isinstance(key, str) and key in REFUSALS and values is not None:
        return Text(str(key), values)
    return Text(peer_line(message.get("reason", ""), 200))


def _clean(params: Any) -> dict[str, Any] | None:
    """A peer's values for a known key: at most four, short, and plain; None if not."""
    if not isinstance(params, dict) or len(params) > 4:
        return None
    return {str(k)[:20]: peer_line(v, 80) if isinstance(v, str) else v
            for k, v in params.items() if isinstance(v, (str, int)) and type(v) is not bool}


def error_frame(kind: Any, reason: Text) -> dict:
    """The error frame that answers a refused message: English text, and the key with its
    values so the other arcade can say it in its player's language."""
    text = Text(REFUSED, {"kind": str(kind)[:40], "reason": reason})
    return {"type": "error", "text": text.english()[:300], "kind": str(kind)[:40],
            "reason": reason.key,
            "values": {k: _plain(v) for k, v in reason.params.items()}}


def _plain(value: Any) -> Any:
    return value.english() if isinstance(value, Text) else value if isinstance(
        value, (int, str)) else str(value)


def said(message: dict) -> Text:
    """An error frame from the peer as a Text: its key if it is one this arcade knows (with
    short, clean values), else its English text, cleaned."""
    key, clean = message.get("reason"), _clean(message.get("values"))
    if isinstance(key, str) and key in KNOWN_KEYS and clean is not None:  # {} is unhashable
        kind = message.get("kind")
        return Text(REFUSED, {"kind": Text(KIND_WORDS.get(kind, N_("message"))
                                           if isinstance(kind, str) else N_("message")),
                              "reason": Text(str(key), clean)})
    return Text(peer_line(message.get("text", ""), 200))
