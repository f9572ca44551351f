"""The board contract: what the play scene asks of each game's drawing and input module.

The play scene owns the match, the seats, the side panel, undo, resign and hand-over. A board
only draws the view it is given and turns the local player's clicks and keys into moves.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import pygame

from ai.base import LEVEL_TITLES, LEVELS
from client.ui import theme
from game import registry
from game.i18n import N_, _
from game.settings import Setting, declare

Store = Callable[[str, Any], None]  # saves one setting: game.settings.put


@dataclass(frozen=True)
class Diagram:
    """A small picture on a game's rules page, drawn by the game's own board code."""

    caption: str  # already translated
    draw: Callable[[pygame.Surface, pygame.Rect], None]  # draws the picture inside the rect
    after: str = ""  # the English heading of the rules section it illustrates; "" the end
    aspect: float = 1.0  # width over height
    scale: float = 1.0  # larger than the page's usual picture (a chart to read)


class BoardBase:
    """Draws one game's view in a rect and reports the moves the local player makes."""

    # The game's own settings (keys start with the game id); game/settings.py gathers them.
    SETTINGS: ClassVar[tuple[Setting, ...]] = ()
    # What belongs to the person at the screen, not to the game (a selection, the cursor,
    # planes being placed, guesses): kept per viewer, so nothing of one seat's stays on the
    # board when another seat takes it (see new_viewer).
    PRIVATE: ClassVar[tuple[str, ...]] = ()
    # True if a seat's moves, as move_text writes them from that seat's views, tell nothing of
    # its secrets (planes: the cells called and their answers, known to both): then a game
    # that hides something between seats still lists its moves while it is played.
    PUBLIC_MOVES: ClassVar[bool] = False
    # What the game's score counts, said beside it on the result card and in replay summaries.
    SCORE_UNIT: ClassVar[str] = N_("points")
    # Keys of SETTINGS the game's setup screen offers too (a one-player game's helper bot).
    SETUP: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declare(cls.SETTINGS)  # a game's settings are known as soon as its board is

    def __init__(self, options: dict, seat_names: tuple[str, ...], prefs: dict | None = None,
                 store: Store | None = None):
        self.options = options
        self.seat_names = seat_names
        # The player's client settings (game.settings keys such as "animation_speed");
        # read with self.prefs.get(key, default).
        self.prefs: dict = dict(prefs or {})
        self._store = store
        self.rect = pygame.Rect(0, 0, 400, 400)
        self.view: dict | None = None
        self.legal: list = []
        self.my_turn = False
        self.viewer: int | None = None
        self.last_move: Any = None
        self.autoplay = False  # pending_move's moves are a bot's, made for the player
        self.counted = True  # the game is the player's own: its score may set a best
        self.over = False  # the game has ended (by its rules, or resigned, timed out, agreed)
        self.notice: str | None = None  # why a press did nothing; the play scene says it once
        self.someone_plays = True  # a person here plays (not bots watched): helpers are theirs
        self._fresh: dict[str, Any] | None = None  # PRIVATE as a new board has them
        self._kept: dict[int | None, dict[str, Any]] = {}  # PRIVATE, per viewer

    def remember(self, key: str, value: Any) -> None:
        """Keep a setting of this game's (in prefs, and in the settings file if given a store)."""
        self.prefs[key] = value
        if self._store is not None:
            self._store(key, value)

    @property
    def animation_speed(self) -> float:
        """0 turns animations off; 2 plays them twice as fast."""
        return float(self.prefs.get("animation_speed", 1.0))

    def set_view(self, view: dict, legal: list, *, my_turn: bool, viewer: int | None,
                 last_move: Any = None, animate: bool = True) -> None:
        """Show a new view. legal is the local player's legal moves (empty when not my_turn).

        animate is False when the view jumps (undo, load, replay seek); boards then skip their
        move animations.
        """
        if self._fresh is None:
            self._fresh = copy.deepcopy({name: getattr(self, name) for name in self.PRIVATE})
        if viewer != self.viewer:
            self.new_viewer(viewer)
        self.view, self.legal, self.my_turn = view, list(legal), my_turn
        self.viewer, self.last_move = viewer, last_move

    def new_viewer(self, viewer: int | None) -> None:
        """Another seat (None: nobody's) has the screen: the last one's PRIVATE state is put
        away and the new one's comes back (a fresh board's the first time)."""
        if self._fresh is None:
            self._fresh = copy.deepcopy({name: getattr(self, name) for name in self.PRIVATE})
        self._kept[self.viewer] = {name: getattr(self, name) for name in self.PRIVATE}
        mine = self._kept.pop(viewer, None)
        if mine is None:
            mine = self.fresh_private(viewer)
        for name, value in mine.items():
            setattr(self, name, value)
        self.viewer = viewer

    def layout(self, rect: pygame.Rect) -> None:
        """Fit the board inside rect (called on every resize)."""
        self.rect = pygame.Rect(rect)

    def handle_event(self, event: pygame.event.Event) -> Any | None:
        """Returns a move (or a setup value in a setup phase) when the player made one."""
        return None

    def update(self, dt: float) -> None:
        """Advance animations by dt seconds."""

    def draw(self, surface: pygame.Surface) -> None:
        raise NotImplementedError

    def status(self) -> list[str]:
        """Lines for the side panel: counts, scores, and turn_hint() on the player's turn."""
        return []

    def turn_hint(self) -> list[str]:
        """What status() adds on the local player's turn (how to move). The panel keeps room
        for it all game, so its buttons stay where they are as the turns pass."""
        return []

    def actions(self) -> list[tuple[str, Callable[[], None]]]:
        """Extra side-panel buttons this game offers (hint, heat map, ...)."""
        return []

    def pending_move(self) -> Any | None:
        """A move the board makes on the player's behalf (2048 autoplay), polled each frame."""
        return None

    def sound_for(self, old_view: dict | None, new_view: dict, move: Any) -> str:
        """Which effect a move makes: move, capture, hit, miss, flip (see client/sound.py)."""
        return "move"

    def close(self) -> None:
        """The scene showing the board is gone: stop background work (a hint, autoplay)."""

    def side_name(self, seat: int) -> str:
        """How the side panel names a seat's side."""
        return self.side_title(self.seat_names, seat)

    @classmethod
    def side_title(cls, seat_names: tuple[str, ...], seat: int) -> str:
        """How a seat's side is named before there is a game to look at (the setup's rows)."""
        return _(seat_names[seat])

    def seat_colour(self, seat: int) -> tuple[int, int, int]:
        """The ink a seat plays in, for its dot in the panel and on the result card."""
        return theme.SEAT_COLORS[seat % 2]

    def move_text(self, move: Any, before: dict, after: dict) -> str:
        """A move in this game's own notation, for move lists; before and after are the whole
        truth (views for seat None) around it."""
        text = str(move)
        return text if len(text) <= 22 else text[:20] + "…"

    def fresh_private(self, viewer: int | None) -> dict[str, Any]:
        """The PRIVATE state a seat starts with: a new board's (nothing of another seat's)."""
        return copy.deepcopy(self._fresh or {})

    @property
    def remembers(self) -> bool:
        """The board keeps what its seat saw over the game (Banqi's fog: pieces last seen), so
        it is given every view of its seat's in turn, those it missed too (PlayScene.refresh,
        the replay player)."""
        return False

    def restart(self) -> None:
        """Every seat's PRIVATE state as a new board's: what a seat had seen is to be given
        again from the start (a replay that jumps)."""
        self._kept = {}
        for name, value in self.fresh_private(self.viewer).items():
            setattr(self, name, value)

    def forget(self) -> None:
        """Between two hidden hands: nothing of the last player's view, nor of what they were
        doing on the board, stays to be drawn."""
        self.view, self.legal, self.my_turn = None, [], False
        if self.viewer is not None:
            self.new_viewer(None)

    def busy(self) -> bool:
        """True while an animation is running that the next move should wait for."""
        return False

    def diagrams(self) -> list[Diagram]:
        """Pictures for the rules page (a clone and a jump, a box closed, ...)."""
        return []

    def picture(self, view: dict, *, legal: list | tuple = (), my_turn: bool = False,
                viewer: int | None = None, last_move: Any = None, options: dict | None = None,
                prepare: Callable[[Any], None] | None = None
                ) -> Callable[[pygame.Surface, pygame.Rect], None]:
        """A Diagram's draw function: a board of this game showing view, laid out in the rect;
        prepare(board) sets what the view alone does not (a selected piece, a ghost plane)."""

        def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
            board = type(self)(dict(options or self.options), self.seat_names, self.prefs)
            board.set_view(view, list(legal), my_turn=my_turn, viewer=viewer,
                           last_move=last_move, animate=False)
            board.layout(rect)
            if prepare is not None:
                prepare(board)
            clip = surface.get_clip()
            surface.set_clip(rect.clip(clip))  # a board's margin never spills out of the frame
            board.draw(surface)
            surface.set_clip(clip)
            board.close()

        return draw


ARROWS = {pygame.K_LEFT: (-1, 0), pygame.K_RIGHT: (1, 0), pygame.K_UP: (0, -1),
          pygame.K_DOWN: (0, 1)}
ENTER_KEYS = (pygame.K_RETURN, pygame.K_SPACE, pygame.K_KP_ENTER)


class SquareBoard(BoardBase):
    """A board of squares the player picks with the mouse, or with the arrow keys and Enter:
    each pick goes to press(square), which selects, moves or deselects."""

    cursor = 0
    selected: int | None = None

    def square_at(self, pos: tuple[int, int]) -> int | None:
        """The square under a screen position, None off the board."""
        raise NotImplementedError

    def press(self, sq: int) -> Any | None:
        """A click or Enter on a square; returns a move when the player made one."""
        raise NotImplementedError

    def step_cursor(self, dx: int, dy: int) -> int:
        """The square one step from the cursor on the screen (dy -1 is up), kept on the board."""
        raise NotImplementedError

    def pick(self, event: pygame.event.Event) -> Any | None:
        """A click on a square, or the arrows and Enter: the move the player made, if any."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            sq = self.square_at(event.pos)
            if sq is None:
                self.selected = None
                return None
            self.cursor = sq
            return self.press(sq)
        if event.type == pygame.KEYDOWN:
            if event.key in ARROWS:
                self.cursor = self.step_cursor(*ARROWS[event.key])
            elif event.key in ENTER_KEYS:
                return self.press(self.cursor)
        return None


def coordinate_size(cell: int) -> int:
    """The text size of a board's coordinates beside squares of cell px."""
    return max(12, min(22, cell // 5))


def coordinate_room(cell: int, gap: int) -> int:
    """The room coordinates set gap px off the squares take beside them (their line's height:
    the widest label, "9", is narrower)."""
    return gap + theme.font(coordinate_size(cell)).get_height()


def helper_levels() -> tuple[tuple[str, str], ...]:
    """The bot levels as a setting's choices (English titles, translated where shown)."""
    return tuple((lv.value, LEVEL_TITLES[lv]) for lv in LEVELS)


def game_settings() -> list[Setting]:
    """Every game's own settings, as its board declares them, in menu order."""
    found: list[Setting] = []
    for game_id in registry.available():
        found += registry.get(game_id).board_module().Board.SETTINGS
    return found


def autoplay_move(board: Any, busy: bool, ask: Callable[[], None]) -> Any:
    """A board's autoplay (2048, Fox Hunt): the bot's move once it has come and its pause is
    over, None until then; the bot is asked once per position (`ask`) when it is not busy."""
    if not board.autoplay or not board.my_turn or not board.legal:
        return None
    if board.auto_move is not None:
        if board.wait > 0:
            return None
        move, board.auto_move = board.auto_move, None
        return move if move in board.legal else None
    if not busy and board.asked_for != board.version:
        board.asked_for = board.version
        ask()
    return None

