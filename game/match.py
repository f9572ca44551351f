"""A match: the rules, options, seed, seats and move list, and the states they lead to.

Undo, replay, save, resume and network sync all work from (game, options, seed, moves,
reseeds): replaying that record rebuilds every state bit for bit.
"""

from __future__ import annotations

import enum
import math
import random
import time
from dataclasses import dataclass
from typing import Any, TypeVar

from game import registry
from game.i18n import DEFAULT_NAMES, N_, Text
from game.rules import Outcome, RulesError, Termination
from game.text import LINE_MAX, NAME_MAX, clean_text

MAX_MOVES = 100_000  # longer than any real game (a 2048 game to 131072 is about 60,000 moves)
SEED_RANGE = range(-(2**63), 2**64)
COMMAND_MAX = 4096  # an outside program's command line, as a file gives it

# the reason a LAN game claimed from a player who left gives, alike in both records: in words
# true from either side (the loser reads it too)
CLAIMED = N_("the loser left; game claimed")
# what records of earlier versions say instead, kept in the catalogue so they are still said
# in the player's language
EARLIER_CLAIMED = N_("the other player left; game claimed")
# seconds the other player must have been gone before a LAN game may be claimed: a dropped
# link, or a window closed by mistake and opened again, is not a win
CLAIM_AFTER = 60.0


def whole(value: Any, what: str) -> int:
    """value if it is a whole number in SEED_RANGE (not a bool, a float or infinity)."""
    if type(value) is not int or value not in SEED_RANGE:
        raise RulesError(f"{what} must be a whole number, not {_short(value)}")
    return value


def _short(value: Any, size: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= size else text[:size] + "..."


def _record_reseeds(raw: Any, moves: int) -> list[tuple[int, int]]:
    """The record's reseeds, each (ply, seed) with 0 <= ply <= moves."""
    if not isinstance(raw, list) or len(raw) > MAX_MOVES:
        raise RulesError(f"a match record's reseeds must be a list of at most {MAX_MOVES:,}")
    out = []
    for item in raw:
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            raise RulesError(f"a reseed is [ply, seed], not {_short(item)}")
        ply, seed = whole(item[0], "a reseed's ply"), whole(item[1], "a reseed's seed")
        if not 0 <= ply <= moves:
            raise RulesError(f"a reseed at ply {ply} of a game of {moves} moves")
        out.append((ply, seed))
    return out


class SeatKind(str, enum.Enum):
    """Who plays a seat. The value is the seat's kind in files and on the wire."""

    HUMAN = "human"  # someone at this computer
    AI = "ai"  # a built-in bot, at the seat's level
    REMOTE = "remote"  # the other player of a LAN game
    AGENT = "agent"  # an outside program, run with the seat's command

    def __str__(self) -> str:
        return self.value


class Level(str, enum.Enum):
    """How strong a built-in bot plays, weakest first. The value is its name in files, settings,
    statistics and on the command line."""

    RANDOM = "random"
    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"

    def __str__(self) -> str:
        return self.value


_E = TypeVar("_E", bound=enum.Enum)


def _member(kind: type[_E], value: Any, what: str) -> _E:
    """The member of `kind` whose value is `value`; RulesError naming the ones there are."""
    try:
        return kind(value)
    except ValueError:
        names = ", ".join(str(m.value) for m in kind)
        raise RulesError(f"unknown {what} {_short(value)}; {what}s: {names}") from None


@dataclass
class Seat:
    """Who plays a seat: a local human, a built-in bot, a LAN peer or an outside program.
    A kind or level given as its string becomes the enum member (ValueError if unknown)."""

    kind: SeatKind = SeatKind.HUMAN
    name: str = "Player"
    level: Level = Level.NORMAL  # the bot level, for kind AI
    command: str = ""  # the program's command line, for kind AGENT

    def __post_init__(self) -> None:
        self.kind = SeatKind(self.kind)
        self.level = Level(self.level)

    def to_dict(self) -> dict:
        return {"kind": str(self.kind), "name": self.name, "level": str(self.level),
                "command": self.command}

    @classmethod
    def from_dict(cls, d: Any) -> Seat:
        """The seat a file or a message gives; RulesError on an unknown kind or level."""
        if not isinstance(d, dict):
            raise RulesError(f"bad seat {_short(d)}")
        return cls(kind=_member(SeatKind, d.get("kind"), "seat kind"),
                   name=clean_text(d.get("name", "Player"), NAME_MAX) or "Player",
                   level=_member(Level, clean_text(d.get("level"), NAME_MAX) or "normal",
                                 "bot level"),
                   command=clean_text(d.get("command", ""), COMMAND_MAX))


@dataclass(frozen=True)
class Ending:
    """An end the rules did not reach: a seat gave up or failed (loser), or both agreed a draw
    (loser None)."""

    loser: int | None
    termination: Termination
    detail: str = ""  # the English (a catalogue key where `said` is None)
    said: Text | None = None  # the words with their values, said in the player's language

    def to_dict(self) -> dict:
        out = {"loser": self.loser, "termination": self.termination.value,
               "detail": self.detail}
        return out | {"said": self.said.to_data()} if self.said is not None else out

    @classmethod
    def from_dict(cls, d: Any, players: int) -> Ending:
        if not isinstance(d, dict):
            raise RulesError(f"bad ending {d!r}")
        loser = d.get("loser")
        if loser is not None and (type(loser) is not int or loser not in range(players)):
            raise RulesError(f"bad ending: no seat {loser!r}")
        try:
            termination = Termination(d.get("termination"))
        except (ValueError, TypeError):
            raise RulesError(f"bad ending: {d.get('termination')!r}") from None
        return cls(loser, termination, clean_text(d.get("detail", ""), LINE_MAX),
                   Text.from_data(d.get("said")))  # a crafted one is dropped


class Match:
    def __init__(self, game_id: str, options: dict | None = None, seed: int | None = None,
                 seats: list[Seat] | None = None):
        self.info = registry.get(game_id)
        self.rules = self.info.rules
        self.game_id = game_id
        self.options = self.rules.normalize_options(options)
        self.seed = random.randrange(2**31) if seed is None else whole(seed, "seed")
        players = self.rules.PLAYERS
        self.seats = list(seats) if seats else [Seat(name=f"Player {i + 1}")
                                                 for i in range(players)]
        if len(self.seats) != players:
            raise RulesError(f"{game_id} takes {players} seats, not {len(self.seats)}")
        self.moves: list[Any] = []
        # (ply, seed): before move `ply` the unrevealed chance was redrawn with `seed`.
        self.reseeds: list[tuple[int, int]] = []
        self.states = [self.rules.new_game(self.options, self.seed)]
        self.started = time.time()
        self.ending: Ending | None = None  # a resignation, forfeit or agreed draw
        self._undo_rng = random.Random(self.seed ^ 0x5EED)
        self._outcome_of: tuple[Any, Outcome | None] | None = None  # (state, its outcome)

    # --- what the state says
    @property
    def state(self) -> Any:
        return self.states[-1]

    def to_move(self) -> int | None:
        return None if self.over else self.rules.to_move(self.state)

    def legal_moves(self) -> list:
        return [] if self.over else self.rules.legal_moves(self.state)

    def outcome(self) -> Outcome | None:
        end = self.ending
        if end is None:
            return self._rules_outcome()
        detail = end.said or (Text(end.detail) if end.detail else None)
        if not detail and end.termination is Termination.RESIGNATION and end.loser is not None:
            who = self._name_words(end.loser)
            detail = Text(N_("{name} ({side}) resigned"), {
                "name": who, "side": Text(self.rules.SEAT_NAMES[end.loser])}) \
                if self.rules.PLAYERS > 1 else Text(N_("{name} resigned"), {"name": who})
        # two players: the other seat wins; one gives up alone, and of three or more the
        # match cannot say who would have won
        winner = 1 - end.loser if end.loser is not None and self.rules.PLAYERS == 2 else None
        return Outcome(winner, self.score(), end.termination, detail)

    def _rules_outcome(self) -> Outcome | None:
        """The rules' outcome of the present state, worked out once for each state: states are
        immutable, and the loop asks several times a frame (Banqi's generates every move)."""
        state = self.state
        if self._outcome_of is None or self._outcome_of[0] is not state:
            self._outcome_of = (state, self.rules.outcome(state))
        return self._outcome_of[1]

    def score(self) -> tuple[int, ...]:
        """The score per seat now (mid-game too)."""
        return tuple(self.rules.score(self.state))

    @property
    def resigned(self) -> int | None:
        """The seat that resigned or forfeited, if one did."""
        return self.ending.loser if self.ending is not None else None

    @property
    def over(self) -> bool:
        return self.outcome() is not None

    def view(self, seat: int | None) -> dict:
        return self.rules.view(self.state, seat)

    def mover_at(self, ply: int) -> int | None:
        """The seat that played the move made after `ply` plies (None: nobody's)."""
        return self.rules.to_move(self.states[ply])

    def view_at(self, ply: int, seat: int | None) -> dict:
        """What `seat` saw of the position after `ply` plies (0: the start; None: the whole
        truth)."""
        return self.rules.view(self.states[ply], seat)

    def record_complete(self) -> bool:
        """Whether its record rebuilds this very game, for a replay or a review: so for every
        match but one known only through views whose whole was never shown (a LAN guest's game
        under the fog, net.secrets.banqi.FogMatch, when the host never revealed it)."""
        return True

    def setup_pending(self) -> bool:
        """True while the game is in its setup phase (planes)."""
        return self.rules.SETUP and self.rules.setup_pending(self.state)

    def seat_words(self, seat: int) -> Text:
        """A seat as the screen names it, said in the player's language: the player's name (a
        default name translated) and, of two or more, the game's colour."""
        who = self._name_words(seat)
        if self.rules.PLAYERS == 1:
            return Text("{name}", {"name": who})
        return Text(N_("{name} ({side})"), {"name": who, "side": Text(self.rules.SEAT_NAMES[seat])})

    def _name_words(self, seat: int) -> str | Text:
        """A seat's name, a default name to be said in the player's language."""
        name = self.seats[seat].name
        return Text(name) if name in DEFAULT_NAMES else name

    def seat_title(self, seat: int) -> str:
        """How the screen names a seat: the player's name and the game's colour."""
        name = self.seats[seat].name
        colour = self.rules.SEAT_NAMES[seat]
        return f"{name} ({colour})" if self.rules.PLAYERS > 1 else name

    # --- changing it
    def play(self, move: Any) -> Any:
        """Play a move (its wire value). RulesError if it is malformed or illegal; then
        nothing changes."""
        if self.over:
            raise RulesError("the game is over")
        move = self.rules.move_from_wire(move)
        new_state = self.rules.apply(self.state, move)
        self.moves.append(self.rules.move_to_wire(move))
        self.states.append(new_state)
        return new_state

    def resign(self, seat: int, detail: str | Text = "",
               termination: Termination = Termination.RESIGNATION) -> None:
        """Seat gives up, or forfeits (a program that failed, a lost link: say why, as a
        catalogue key or a Text)."""
        if not self.over and seat in range(self.rules.PLAYERS):
            self.ending = Ending(seat, termination, detail.english()[:LINE_MAX], detail) \
                if isinstance(detail, Text) else Ending(seat, termination, detail)

    def agree_draw(self, detail: str = N_("Draw agreed")) -> None:
        """Both players agreed to end the game as a draw."""
        if not self.over:
            self.ending = Ending(None, Termination.AGREED_DRAW, detail)

    def undo(self, count: int = 1) -> int:
        """Take back up to count moves; returns how many were taken back."""
        count = min(count, len(self.moves))
        if count <= 0:
            return 0
        self.ending = None
        del self.moves[-count:]
        del self.states[-count:]
        self.reseeds = [(p, s) for p, s in self.reseeds if p <= len(self.moves)]
        if self.rules.CHANCE:
            seed = self._undo_rng.randrange(2**31)
            self.reseeds.append((len(self.moves), seed))
            self.states[-1] = self.rules.reseed(self.states[-1], seed)
        return count

    def back_for(self, seat: int) -> int:
        """How many moves `undo_for(seat)` takes back (0: none)."""
        for back in range(1, len(self.moves) + 1):
            if self.rules.to_move(self.states[-1 - back]) == seat:
                return back
        return 0

    def undo_for(self, seat: int) -> int:
        """Undo back to the last position where `seat` was to move, before its move there
        (against a bot: back to your turn). Returns the moves taken back, 0 if none."""
        return self.undo(self.back_for(seat))

    # --- records
    def to_record(self) -> dict:
        """Everything needed to rebuild this match (saves, replays, the LAN link)."""
        return {
            "game": self.game_id,
            "options": dict(self.options),
            "seed": self.seed,
            "seats": [s.to_dict() for s in self.seats],
            "moves": list(self.moves),
            "reseeds": [list(r) for r in self.reseeds],
            "ending": self.ending.to_dict() if self.ending is not None else None,
            "started": self.started,
        }

    @classmethod
    def from_record(cls, record: Any) -> Match:
        """Rebuild a match by replaying its record; RulesError if any part is wrong. Every field
        is checked for type and range, and the work is linear in the record's length."""
        if not isinstance(record, dict):
            raise RulesError("a match record must be a mapping")
        try:
            game_id = record["game"]
            seats_raw = record.get("seats")
            if seats_raw is not None and not isinstance(seats_raw, list):
                raise RulesError("a match record's seats must be a list")
            seats = [Seat.from_dict(s) for s in seats_raw] if seats_raw else None
            match = cls(game_id, record.get("options"), whole(record["seed"], "seed"), seats)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, RulesError):
                raise
            raise RulesError(f"damaged match record: {exc}") from exc
        moves = record.get("moves", [])
        if not isinstance(moves, list) or len(moves) > MAX_MOVES:
            raise RulesError(f"a match record's moves must be a list of at most {MAX_MOVES:,}")
        reseeds = _record_reseeds(record.get("reseeds", []), len(moves))
        at_ply: dict[int, list[int]] = {}
        for p, s in reseeds:
            at_ply.setdefault(p, []).append(s)
        for ply in range(len(moves) + 1):
            for s in at_ply.get(ply, ()):
                match.states[-1] = match.rules.reseed(match.states[-1], s)
            if ply < len(moves):
                try:
                    match.play(moves[ply])
                except RulesError as exc:
                    raise RulesError(f"move {ply + 1} ({_short(moves[ply])}): {exc}") from exc
        match.reseeds = reseeds
        ending = _record_ending(record, match.rules.PLAYERS)
        if ending is not None and not match.over:
            match.ending = ending
        started = record.get("started")
        if isinstance(started, (int, float)) and type(started) is not bool \
                and math.isfinite(started):
            match.started = float(started)
        return match

    def result_line(self) -> str:
        """One line: the game, who won, the score and why (printed by --headless runs)."""
        out = self.outcome()
        if out is None:
            return f"{self.game_id}: unfinished after {len(self.moves)} moves"
        score = "-".join(str(s) for s in out.score)
        if self.rules.PLAYERS == 1:
            verdict = "won" if out.winner == 0 else "over"
        elif out.winner is None:
            gave_up = self.ending is not None and self.ending.loser is not None
            verdict = "over" if gave_up else "draw"
        else:
            verdict = f"{self.rules.SEAT_NAMES[out.winner]} wins"
        reason = f" ({out.reason})" if out.reason else ""
        return f"{self.game_id}: {verdict} {score}{reason}"


def _record_ending(record: dict, players: int) -> Ending | None:
    """The record's ending; records written before "ending" existed say "resigned",
    "resign_reason" and "drawn"."""
    if record.get("ending") is not None:
        return Ending.from_dict(record["ending"], players)
    resigned = record.get("resigned")
    if type(resigned) is int and resigned in range(players):
        reason = clean_text(record.get("resign_reason", ""), LINE_MAX)
        return Ending(resigned, Termination.RESIGNATION, reason)
    if isinstance(record.get("drawn"), str) and record["drawn"]:
        return Ending(None, Termination.AGREED_DRAW, clean_text(record["drawn"], LINE_MAX))
    return None
