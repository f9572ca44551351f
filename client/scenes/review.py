"""The review of a finished game (issue 32): Hard's judgement of every move, drawn.

The analysis (ai/review.py) runs on a worker thread; the loop only reads how far it has got and
the plies judged so far, so the board, the move list and the graph stay usable while it runs.
A finished review is kept in the replay file (game/replay.py store_review, on the worker too),
and a second opening reads it back instead of judging the game again.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from ai.base import LEVEL_TITLES
from ai.review import DEEP, QUICK, Review, Settings, reusable
from ai.review_process import ProcessReview
from ai.worker import Worker
from client.scenes.base import Opener, Scene, above, error_words, start_match
from client.ui import paper, theme
from client.ui.widgets import Button, ButtonGroup, ChoiceRow, sheet
from game import replay, settings, storage
from game.i18n import (
    N_,
    _,
    format_number,
    format_percent,
    outcome_reason,
    pgettext,
    seat_title,
    system_error,
)
from game.match import Match, Seat
from game.rules import RulesError

if TYPE_CHECKING:
    from client.app import App

# What runs the analysis: a review in a process of its own (the window keeps drawing), or a
# stand-in with Review's interface (tests).
REVIEWER: type[Review] | type[ProcessReview] = ProcessReview
DEPTHS = {"quick": QUICK, "deep": DEEP}
CLASS_NAMES = {"inaccuracy": N_("Inaccuracy"), "mistake": N_("Mistake"),
               "blunder": N_("Blunder")}
PERCENT_UNITS = ("win chance", "survival")  # units that are a share, said as a percentage


def _played() -> str:
    """The caption over the board of the move played (not the statistics' games played)."""
    return pgettext("review: the move played", "Played")


def _lists(value: Any) -> Any:
    """Tuples as lists, as a move reads back from a file."""
    if isinstance(value, (list, tuple)):
        return [_lists(v) for v in value]
    return value


def find_replay(match: Match) -> Path | None:
    """The replay file this match was saved in (newest first), if there is one."""
    pattern = f"*-{match.game_id}-{match.seed % 100000:05d}{replay.SUFFIX}"
    moves = _lists(match.moves)
    for path in sorted(replay.replays_dir().glob(pattern), reverse=True):
        try:
            body = storage.read_file(path, replay.KIND, replay.FORMAT)
        except storage.FileError:
            continue
        if body.get("seed") == match.seed and _lists(body.get("moves")) == moves:
            return path
    return None


def rebuilt(match: Match, ply: int, seats: list[Seat]) -> Match:
    """A new match at this ply of the old one (its chance as it was), with these seats."""
    record = match.to_record()
    record["moves"] = record["moves"][:ply]
    record["reseeds"] = [r for r in record["reseeds"] if r[0] <= ply]
    record["ending"] = None
    record["started"] = None  # a new game: its own autosave
    record["seats"] = [s.to_dict() for s in seats]
    return Match.from_record(record)


class ReviewScene(Scene):
    """A finished game with Hard's judgement: the graph, marked moves, the better move."""

    def __init__(self, app: App, match: Match, path: Path | str | None = None,
                 ply: int | None = None, reviewer: type[Review] | None = None,
                 left_at: Callable[[int, dict | None], None] | None = None):
        super().__init__(app)
        self.match = match
        # told, when the review closes, the move it shows and its finished review, if any (the
        # replay it was opened from follows both)
        self.left_at = left_at
        self.path = Path(path) if path is not None else None
        self.reviewer = reviewer or REVIEWER
        rules = match.rules
        self.rules = rules
        n = len(match.moves)
        self.ply = n if ply is None else max(0, min(n, ply))
        board_type = match.info.board_module().Board
        self.board = board_type(match.options, rules.SEAT_NAMES, prefs=settings.all_values(),
                                store=settings.put)
        self.better_board = board_type(match.options, rules.SEAT_NAMES,
                                       prefs=settings.all_values())
        # each seat's ink as the game ended it (a Banqi seat's colour comes with a flip)
        self.better_board.set_view(rules.view(match.states[-1], None), [], my_turn=False,
                                   viewer=None, animate=False)
        self.inks = [self.better_board.seat_colour(s) for s in range(rules.PLAYERS)]
        self.move_texts = [self.board.move_text(m, rules.view(match.states[i], None),
                                                rules.view(match.states[i + 1], None))
                           for i, m in enumerate(match.moves)]
        self.worker = Worker()
        self.job: Review | None = None  # the running analysis (read by the loop, never waited on)
        self.doc: dict | None = None  # the finished review
        self.state = "reading"  # reading, running, done, cancelled, failed
        self.stored = False  # the review shown was read from the replay file
        self.note = ""  # why the review was not kept, if it was not
        self.depth = ChoiceRow(_("Depth"), [("quick", _("Quick")), ("deep", _("Deep"))],
                               "quick", lambda _v: self.start(fresh=False))
        self.run_button = Button(_("Cancel"), self.toggle_run)
        self.try_button = Button(_("Try again from here"), self.try_again, hotkey=pygame.K_t)
        self.starter = Opener()  # rebuilds the game to try again from, off the loop
        self.side_buttons = ButtonGroup([self.run_button, self.try_button, Button(_("Back"),
                                                                                  self.back)])
        self.previous_button = Button(_("Previous mistake"), self.previous_mistake,
                                      hotkey=pygame.K_p)
        self.next_button = Button(_("Next mistake"), self.next_mistake, hotkey=pygame.K_n)
        self._marks_for: tuple = ()  # (ply, moves judged, running) the buttons were set for
        self.nav = ButtonGroup([
            Button("|<", lambda: self.seek(0), hotkey=pygame.K_HOME, icon="first"),
            Button("<", lambda: self.seek(self.ply - 1), icon="previous"),
            Button(">", lambda: self.seek(self.ply + 1), icon="next"),
            Button(">|", lambda: self.seek(len(self.match.moves)), hotkey=pygame.K_END,
                   icon="last"),
            self.previous_button,
            self.next_button,
        ], vertical=False)
        self.side = pygame.Rect(0, 0, 0, 0)
        self.graph = pygame.Rect(0, 0, 0, 0)
        self.text_box = pygame.Rect(0, 0, 0, 0)
        self.board_area = pygame.Rect(0, 0, 0, 0)
        self.bar = pygame.Rect(0, 0, 0, 0)
        self.move_rows: list[tuple[int, pygame.Rect]] = []
        self.has_better = False  # the move shown was not the best: the best can be drawn
        self.split = False  # the better move is on its own board beside the played one
        self.show_better = False  # no room for two boards: the one board shows the better move
        self.fits: dict[tuple, bool] = {}  # whether two boards fit side by side, per layout
        self.better_text = ""
        self.tabs: list[tuple[bool, pygame.Rect]] = []  # Played / Better, when one board
        self.captions: list[pygame.Rect] = []  # where the words over the boards were drawn
        self.said: tuple[tuple[int, str], ...] = ()  # the judgement's lines as drawn
        self.said_size = 16  # and their text size
        self.status_said = ""  # the review's state as drawn over the move list
        self.graph_labels: list[tuple[pygame.Rect, pygame.Surface]] = []  # words on the graph
        self.start(fresh=False, any_depth=True)
        self.show()

    # --- the analysis, off the loop thread
    @property
    def settings(self) -> Settings:
        return DEPTHS[str(self.depth.value)]

    def start(self, fresh: bool = True, any_depth: bool = False) -> None:
        """Read a stored review of the chosen depth (of either, with any_depth: the first
        opening), or judge the game now (fresh: even if one is stored), on the worker."""
        match, want, path, reviewer = self.match, self.settings, self.path, self.reviewer
        self.job, self.doc, self.state, self.note, self.stored = None, None, "reading", "", False

        def work(cancel) -> tuple[str, dict | None, Path | None, str]:
            found = path or find_replay(match)
            if found is not None and not fresh:
                try:
                    _m, body = replay.load_replay(found)
                except storage.FileError:
                    found = None
                else:
                    stored = replay.stored_review(body)
                    for depth in (want, *DEPTHS.values()) if any_depth else (want,):
                        if reusable(stored, match, depth):
                            return "stored", stored, found, ""
            if cancel.is_set():  # cancelled or replaced while the file was read
                return "cancelled", None, found, ""
            job = reviewer(match, want, cancel)
            self.job = job
            for _step in job.run():
                if cancel.is_set():
                    break
            if job.result is None:
                return "cancelled", None, found, ""
            found = found or find_replay(match)  # the play screen may have written it since
            note = ""
            if found is not None:
                try:
                    replay.store_review(found, job.result)
                except storage.FileError:  # its English reason is of no use to a player
                    note = storage.unreadable(Path(found).stem, None).say()
                except OSError as exc:
                    note = system_error(exc).say()
            return "done", job.result, found, note

        self.worker.submit(work)

    def toggle_run(self) -> None:
        if self.state in ("reading", "running"):
            self.cancel()
        else:
            self.start(fresh=self.doc is not None)  # again, though it is kept: a new look

    def cancel(self) -> None:
        """Stop the analysis; what was judged so far stays shown."""
        self.worker.cancel()
        if self.job is not None:
            self.job.cancel()
        self.state = "cancelled"

    def _poll(self) -> None:
        if self.state == "reading" and self.job is not None:
            self.state = "running"
        done = self.worker.poll()
        if done is None:
            return
        if done.error is not None:
            self.state = "failed"
            self.note = str(done.error)
            return
        kind, doc, path, note = done.value
        self.path = path or self.path
        self.note = note
        if kind == "cancelled":
            self.state = "cancelled"
            return
        self.doc, self.state, self.stored = doc, "done", kind == "stored"
        self.job = None
        if doc is not None:  # say which depth the stored review was made at
            self.depth.show("deep" if doc.get("settings") == DEEP.to_dict() else "quick")
        self.show()

    @property
    def plies(self) -> list[dict]:
        """The judged plies: the finished review's, or those judged so far."""
        if self.doc is not None:
            return self.doc.get("plies", [])
        job = self.job
        return list(job.entries) if job is not None else []

    def entry(self, ply: int) -> dict | None:
        """The review of move `ply` (0-based), if it has been judged."""
        plies = self.plies
        if 0 <= ply < len(plies) and isinstance(plies[ply], dict):
            return plies[ply]
        return None

    @property
    def unit(self) -> str:
        if self.doc is not None:
            return str(self.doc.get("unit", "win chance"))
        return "win chance" if self.rules.PLAYERS == 2 else ""

    @property
    def better(self) -> int:
        """1 where more is better for the mover, -1 where less is (Fox Hunt's probes)."""
        if self.doc is not None:
            return -1 if self.doc.get("better") == -1 else 1
        for e in self.plies:  # not said until the end: a move that lost something tells
            if e.get("kind") == "move" and e.get("drop") and e["before"] != e["after"]:
                return 1 if e["before"] > e["after"] else -1
        return 1

    # --- moving about
    def seek(self, ply: int) -> None:
        ply = max(0, min(len(self.match.moves), ply))
        if ply != self.ply:
            self.ply = ply
            self.show()

    def marked(self) -> list[int]:
        """The positions after a marked move (where seeking to a mistake lands)."""
        return [e["ply"] + 1 for e in self.plies
                if e.get("kind") == "move" and e.get("class", "ok") != "ok"]

    def _live_mistake_buttons(self, judged: int) -> None:
        """A mistake button is live while it has a mistake to go to; the marks are read again
        only when the position or the judged moves change (a 2048 game has 10,000 and more)."""
        key = (self.ply, judged, self.doc is None)
        if key != self._marks_for:
            self._marks_for = key
            marked = self.marked()
            self.previous_button.enabled = any(p < self.ply for p in marked)
            self.next_button.enabled = any(p > self.ply for p in marked)

    def next_mistake(self) -> None:
        later = [p for p in self.marked() if p > self.ply]
        if later:
            self.seek(later[0])

    def previous_mistake(self) -> None:
        earlier = [p for p in self.marked() if p < self.ply]
        if earlier:
            self.seek(earlier[-1])

    def show(self) -> None:
        """Put the position on the board, and the better move on the board beside it."""
        rules, states, p = self.rules, self.match.states, self.ply
        last = self.match.moves[p - 1] if p else None
        self.board.set_view(rules.view(states[p], None), [], my_turn=False, viewer=None,
                            last_move=last, animate=False)
        better, self.better_text = False, ""
        e = self.entry(p - 1) if p else None
        if e is not None and e.get("kind") == "move" and e.get("best") is not None \
                and _lists(e["best"]) != _lists(e["move"]) and not self.as_good(e):
            try:
                before, best = states[p - 1], rules.move_from_wire(e["best"])
                # a move that turns up a hidden deal is shown unopened: the game never dealt it
                best_state = before if rules.opens_deal(before, best) else rules.apply(before, best)
            except (RulesError, ValueError, TypeError, KeyError, IndexError):
                best_state = None
            if best_state is not None:
                self.better_board.set_view(rules.view(best_state, None), [], my_turn=False,
                                           viewer=None, last_move=e["best"], animate=False)
                self.better_text = self.line_text(e)
                better = True
        if better != self.has_better:
            self.has_better = better
            self.relayout()
        if better and self.show_better and not self.split:
            self.board.set_view(self.better_board.view, [], my_turn=False, viewer=None,
                                last_move=self.better_board.last_move, animate=False)

    def toggle_better(self, on: bool | None = None) -> None:
        """With one board: show the better move on it, or the move played."""
        self.show_better = (not self.show_better) if on is None else on
        self.show()

    def line_text(self, e: dict) -> str:
        """The better move and the line the bot expects after it, in the game's notation."""
        rules, state = self.rules, self.match.states[e["ply"]]
        texts = []
        for move in e.get("line") or [e["best"]]:
            try:
                played = rules.move_from_wire(move)
                unopened = rules.opens_deal(state, played)
                after = state if unopened else rules.apply(state, played)
            except (RulesError, ValueError, TypeError, KeyError, IndexError):
                break
            texts.append(self.board.move_text(move, rules.view(state, None),
                                              rules.view(after, None)))
            state = after
            if unopened or rules.outcome(state) is not None:
                break  # what follows a hidden deal's opening hangs on what it turns up
        return " ".join(texts[:6])

    # --- try again
    def try_again(self) -> None:
        """A new game from the position of the move shown: against the bot, or hot-seat."""
        if self.starter.busy:
            return
        ply = max(0, self.ply - 1)
        if self.rules.PLAYERS == 1:
            self._start_from(ply, bot=True)
            return
        self.app.push("confirm", message=_("Try again from move {n}").format(n=ply + 1),
                      detail=_("Who plays the other side?"), yes=_("A bot"),
                      no=_("Someone here"), on_yes=lambda: self._start_from(ply, bot=True),
                      on_no=lambda: self._start_from(ply, bot=False), cancel=_("Cancel"))

    def _start_from(self, ply: int, bot: bool) -> None:
        old, rules = self.match, self.rules
        mover = rules.to_move(old.states[ply])
        mover = 0 if mover is None else mover
        # the bot of the game reviewed, at its level, whichever side the player now takes
        levels = [s.level for s in old.seats if s.kind == "ai" and s.level in LEVEL_TITLES]
        default = levels[0] if levels else str(settings.get("ai_level"))
        # the player's own name, whichever side they now take (default names stay English in
        # the record, said in the language: person)
        me = next((s.name for s in old.seats if s.kind == "human"), "You")
        seats = []
        for i, s in enumerate(old.seats):
            if i == mover or not bot:
                name = s.name if s.kind == "human" else (me if i == mover else f"Player {i + 1}")
                seats.append(Seat("human", name))
            else:
                level = s.level if s.kind == "ai" and s.level in LEVEL_TITLES else default
                seats.append(Seat("ai", f"{LEVEL_TITLES[level]} bot", level))

        def rebuild() -> Match | RulesError:
            try:
                return rebuilt(old, ply, seats)  # a long 2048 game takes seconds to replay
            except RulesError as exc:
                return exc
        self.starter.open(rebuild, self._start)

    def _start(self, match: Match | RulesError) -> None:
        if isinstance(match, RulesError):
            self.app.toast(_("Cannot start: {error}").format(error=error_words(match)))
            return
        start_match(self.app, match)

    # --- events
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            keys = {pygame.K_LEFT: lambda: self.seek(self.ply - 1),
                    pygame.K_RIGHT: lambda: self.seek(self.ply + 1),
                    pygame.K_b: self.toggle_better}
            if event.key in keys:
                keys[event.key]()
                return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.graph.collidepoint(event.pos):
                self.seek(self.ply_at(event.pos[0]))
                return
            for better, tab in self.tabs:
                if tab.collidepoint(event.pos):
                    self.toggle_better(better)
                    return
            for ply, rect in self.move_rows:
                if rect.collidepoint(event.pos):
                    self.seek(ply)
                    return
        if event.type == pygame.MOUSEWHEEL and self.side.collidepoint(pygame.mouse.get_pos()):
            self.seek(self.ply - event.y)
            return
        if self.depth.handle_event(event, False):
            return
        if self.side_buttons.handle_event(event) or self.nav.handle_event(event):
            return
        super().handle_event(event)

    def update(self, dt: float) -> None:
        self._poll()
        self.starter.poll()
        self.try_button.label = _("Opening…") if self.starter.busy else _("Try again from here")
        self.try_button.enabled = not self.starter.busy
        self.board.update(dt)
        if self.split:
            self.better_board.update(dt)
        running = self.state in ("reading", "running")
        self.run_button.label = _("Cancel") if running else _("Analyse again") \
            if self.doc is not None else _("Analyse")
        judged = len(self.plies)
        self._live_mistake_buttons(judged)
        if (self.ply <= self._shown) != (self.ply <= judged):
            # the move shown has just been judged: its better move appears; or it is judged
            # again (Deep, Analyse again): the last judgement's better move goes meanwhile
            self.show()
        self._shown = judged
        self._place_moves()

    _shown = 0

    def close(self) -> None:
        if self.left_at is not None:
            self.left_at(self.ply, self.doc)
        self.worker.cancel()
        self.starter.cancel()
        if self.job is not None:
            self.job.cancel()
        self.board.close()
        self.better_board.close()

    # --- layout
    k = 1.0  # how much larger than at 800x560 the words are drawn (set by layout)

    def px(self, n: float) -> int:
        """A size in pixels at 800x560, for this window."""
        return round(n * self.k)

    def toast_area(self, size: tuple[int, int]) -> pygame.Rect:
        """Left of the side panel, above the step buttons."""
        return above(self.nav.buttons, self.side.x, size)

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        self.k = 1.0 if h < 700 else 1.2 if h < 1000 else 1.45
        head = self.px(52)
        width = max(250, min(420, w // 4))
        self.side = pygame.Rect(w - width, head, width, h - head)
        side = self.side
        self.depth.layout(pygame.Rect(side.x + 10, side.y + 10, side.width - 20, self.px(36)),
                          self.px(80))
        self.bar = pygame.Rect(side.x + 14, side.y + self.px(58), side.width - 28, self.px(12))
        bottom, button_h = h - 12, self.px(42)
        self.side_buttons.layout_column(side.x + 14, bottom - 3 * button_h - 2 * 8,
                                        side.width - 28, button_h, gap=8)
        left = side.x - 24
        nav_h = self.px(46)
        icon_w = max(40, min(self.px(56), left // 12))
        text_w = max(100, min(self.px(200), (left - 4 * icon_w - 5 * 8) // 2))
        x = 12
        for b in self.nav.buttons:
            b.rect = pygame.Rect(x, h - nav_h - 10, icon_w if b.icon else text_w, nav_h)
            x = b.rect.right + 8
        self.text_size = self.px(16)
        text_h = 5 * (self.text_size + 4) + 6
        self.text_box = pygame.Rect(12, h - nav_h - 18 - text_h, left, text_h)
        graph_h = max(72, min(160, h // 7))
        self.graph = pygame.Rect(12, self.text_box.y - graph_h - 6, left, graph_h)
        top = head + 8 + self.px(24)  # the header, and a caption above each board
        self.board_area = pygame.Rect(12, top, left, self.graph.y - 8 - top)
        area = self.board_area
        self.split = False
        if self.has_better:
            half = (area.width - 16) // 2
            self.board.layout(pygame.Rect(area.x, area.y, half, area.height))
            self.better_board.layout(pygame.Rect(area.right - half, area.y, half, area.height))
            state = self.match.states[self.ply]
            key = (size, self.rules.SETUP and self.rules.setup_pending(state))
            if key not in self.fits:
                self.fits[key] = self._fits(self.board, size)
            self.split = self.fits[key]
        if not self.split:
            self.board.layout(pygame.Rect(area))
        self.show()

    @staticmethod
    def _fits(board: Any, size: tuple[int, int]) -> bool:
        """Whether the board draws inside its rect (a wide board does not at half the room)."""
        layer = pygame.Surface(size, pygame.SRCALPHA)
        board.draw(layer)
        return board.rect.inflate(6, 6).contains(layer.get_bounding_rect())

    def _place_moves(self) -> None:
        side, row_h = self.side, self.px(24)
        top = self.bar.bottom + 6 + self.px(18) * (1 + self.rules.PLAYERS) + 8
        bottom = self.side_buttons.buttons[0].rect.y - 8
        visible = max(1, (bottom - top) // row_h)
        n = len(self.match.moves)
        first = max(0, min(self.ply - visible // 2, n + 1 - visible))
        self.move_rows = []
        y = top
        for ply in range(first, min(n + 1, first + visible)):
            self.move_rows.append((ply, pygame.Rect(side.x + 8, y, side.width - 16, row_h - 2)))
            y += row_h

    # --- what is said
    def as_good(self, e: dict) -> bool:
        """The move played is worth what the best is, as far as the values shown tell: no
        better move to show (one was shown beside two equal values). Nor is one that gave up
        points in a solved position, where the values are equal and its boxes are not."""
        return e.get("before") is not None and not e.get("given") and \
            self.value_text(e.get("before")) == self.value_text(e.get("after"))

    def value_text(self, value: float | None) -> str:
        if value is None:
            return "–"
        if self.unit in PERCENT_UNITS:
            return format_percent(value)
        if self.unit == "probes":  # an expectation has its tenth; a count is whole
            whole = abs(value - round(value)) < 0.05
            return _("{n} probes").format(n=format_number(value, 0 if whole else 1))
        return format_number(value, 2)

    def status_text(self) -> str:
        job = self.job
        if self.state == "reading":
            return _("Reading the replay…")
        if self.state == "running" and job is not None:
            # a share, not positions: a review may pass over the moves twice (settling them,
            # or the truth of a hidden game), and "0/12" of a 6-move game read as wrong
            return _("Analysing: {percent}%").format(percent=int(100 * job.progress.share))
        if self.state == "cancelled":
            return _("Cancelled: what was judged so far is shown")
        if self.state == "failed":
            return _("The analysis failed: {error}").format(error=self.note)
        if self.stored:
            return _("Review read from the replay")
        if self.note:
            return _("Review not kept: {error}").format(error=self.note)
        return _("Review done and kept with the replay") if self.path else _("Review done")

    def share(self) -> float:
        if self.state == "done":
            return 1.0
        job = self.job
        return job.progress.share if job is not None else 0.0

    def judgement(self) -> list[tuple[str, tuple[int, int, int]]]:
        """The lines under the graph about the move that led to the position shown."""
        p = self.ply
        out: list[tuple[str, tuple[int, int, int]]] = []
        lost = self.lost_at()
        if p == 0:
            out.append((_("The start. Click the graph or a move to go there."), theme.INK_SOFT))
            if lost is not None:
                out.append((_("The board was lost at move {n}.").format(n=lost + 1), theme.BAD))
            return out
        e = self.entry(p - 1)
        name = self.move_name(p)
        if e is None:
            out.append((name, theme.INK))
            out.append((_("Not judged yet.") if self.state in ("reading", "running")
                        else _("Not judged."), theme.INK_SOFT))
            return out
        if e.get("kind") == "setup":
            return [(name, theme.INK), (_("A setup: not judged."), theme.INK_SOFT)]
        if e.get("kind") != "move":
            return [(name, theme.INK), (_("Not judged."), theme.INK_SOFT)]
        cls = e.get("class", "ok")
        if cls != "ok":
            verdict = _(CLASS_NAMES[cls])
        elif _lists(e.get("best")) == _lists(e.get("move")):
            verdict = _("The best move")
        elif self.as_good(e):
            verdict = _("As good as the best move")
        else:
            verdict = _("A good move")
        exact = bool(e.get("exact"))
        head = (_("{move}: {verdict} (exact)") if exact else _("{move}: {verdict}")).format(
            move=name, verdict=verdict)
        out.append((head, theme.MARK_COLOURS.get(cls, theme.GOOD)))
        values = (_("Exactly {before} with the best move, {after} with this one (worked out to "
                    "the end)") if exact else
                  _("Expected result {before} with the best move, {after} with this one"))
        out.append((values.format(before=self.value_text(e.get("before")),
                                  after=self.value_text(e.get("after"))), theme.INK))
        if self.better_text:
            out.append((_("Better: {line}").format(line=self.better_text), theme.GOOD))
        truth = self.truth_text(e)
        if truth:
            out.append((truth, theme.INK_SOFT))
        if lost is not None and lost == p - 1:
            # TRANSLATORS: 2048's review, where a move at least halved the chance to go on
            out.append((_("Here the board was lost: the chance to go on fell from {a} to {b}.")
                        .format(a=self.value_text(e.get("before")),
                                b=self.value_text(e.get("after"))), theme.BAD))
        ending = self.match.outcome()
        if p == len(self.match.moves) and ending is not None and not self.ended_by_rules():
            # TRANSLATORS: the review's last move, then how a game its rules did not end ended
            out.append((_("After it: {reason}").format(reason=outcome_reason(ending)),
                        theme.INK_SOFT))
        return out

    def truth_text(self, e: dict) -> str:
        """What the player could not know: the chances the move had, and the truth after it."""
        # a stored review comes from a file, which may be crafted: its figures are read checked
        details, figures = _mapping(e.get("details")), _mapping(e.get("figures"))
        best = _mapping(figures.get("best"))
        parts = []
        head, fox, boxes = _share(details.get("head")), _share(details.get("fox")), \
            _boxes(details.get("boxes"))
        if head is not None:
            parts.append(_("This shot had a {p} chance of a head; the best had {q}.").format(
                p=format_percent(head), q=format_percent(_share(best.get("head")) or 0.0)))
        elif fox is not None:
            parts.append(_("This probe had a {p} chance of a fox; the best had {q}.").format(
                p=format_percent(fox), q=format_percent(_share(best.get("fox")) or 0.0)))
        elif boxes is not None and _boxes(best.get("boxes")) not in (None, boxes):
            # TRANSLATORS: Dots' review of a solved position: the boxes each side ends with
            # ("4-5"), the mover's first, after this move and after the best
            parts.append(_("Worked out to the end: {a} boxes with this move, {b} with the best.")
                         .format(a=boxes, b=_boxes(best.get("boxes"))))
        elif _share(details.get("expectimax")) is not None:
            parts.append(_("The bot valued this move at {p} of its own choice.").format(
                p=format_percent(_share(details.get("expectimax")))))
        truth = e.get("truth") or {}
        if truth.get("after") is not None and truth.get("best_after") is not None \
                and _lists(e.get("best")) != _lists(e.get("move")):
            # TRANSLATORS: the review of a hidden game: the values once the move's answer (a
            # shot's, a probe's, a flip's) is known; still expectations, not the final result
            parts.append(_("With what it turned up: expected result {a}; the best would have "
                           "had {b}.").format(
                a=self.value_text(truth.get("after")), b=self.value_text(truth.get("best_after"))))
        elif truth.get("after") is not None:
            parts.append(_("With what it turned up: expected result {a}.").format(
                a=self.value_text(truth["after"])))
        return " ".join(parts)

    def move_name(self, p: int) -> str:
        """Move p (1-based) as the list shows it: number, side, notation."""
        rules = self.rules
        mover = rules.to_move(self.match.states[p - 1])
        side = _(rules.SEAT_NAMES[mover]) if mover is not None and rules.PLAYERS > 1 else ""
        return " ".join(part for part in (f"{p}.", side, self.move_texts[p - 1]) if part)

    def lost_at(self) -> int | None:
        """The ply where a one-player game was lost (2048's lost_at), from the summary."""
        if self.doc is None or self.rules.PLAYERS != 1 or self.better < 0:
            return None
        lost = (self.doc.get("summary") or {}).get("lost_at", {}).get("0")
        return lost if isinstance(lost, int) else None

    # --- the graph
    def points(self) -> list[float | None]:
        """Per position 0..n, the expected result on the graph's scale (seat 0's side)."""
        n, two = len(self.match.moves), self.rules.PLAYERS == 2
        out: list[float | None] = [None] * (n + 1)
        for e in self.plies:
            if e.get("kind") != "move" or e.get("before") is None:
                continue
            ply, seat = e["ply"], e["seat"]
            out[ply] = 1.0 - e["before"] if two and seat == 1 else e["before"]
            if ply + 1 == n and e.get("after") is not None:  # the last position's, after it
                out[n] = 1.0 - e["after"] if two and seat == 1 else e["after"]
        # a game its rules ended is worth its result; one resigned, agreed or timed out is worth
        # what its last position was (the line dived to the result after a move judged good)
        out_ = self.match.outcome()
        if two and out_ is not None and self.doc is not None and self.ended_by_rules():
            out[n] = 0.5 if out_.winner is None else float(out_.winner == 0)
        return out

    def apart(self) -> bool:
        """Whether the two seats judged from views that differ (one hides something from the
        other): then each seat's judgement is a line of its own. Drawn as one, the line
        see-sawed between the two sides' beliefs at every ply (a planes race read 100%, 0%,
        100%...)."""
        return self.rules.PLAYERS == 2 and self.rules.HIDDEN and \
            self.rules.hides_between_seats(self.match.options)

    def seat_lines(self) -> list[list[tuple[int, float]]]:
        """Per seat, where the seats judged apart: its own expected result on seat 0's scale
        (as points() has it) before each of its moves, and the result at the end where the
        rules ended the game. (The value after each move as well made each line a saw of its
        own: before is the best move's worth, which a race keeps open move after move.)"""
        points, n = self.points(), len(self.match.moves)
        lines: list[dict[int, float]] = [{}, {}]
        for e in self.plies:
            value = points[e["ply"]] if e.get("kind") == "move" else None
            if value is not None:
                lines[e["seat"]][e["ply"]] = value
        end = points[n]
        if end is not None and self.doc is not None and self.ended_by_rules():
            for line in lines:
                line[n] = end
        return [sorted(line.items()) for line in lines]

    def marks(self, points: list[float | None], spacing: float) -> list[tuple[str, int, float]]:
        """The graph's marks: each marked move's class, and the position after it and its
        value, once the line reaches it (while the analysis runs, a mark drawn on the value
        before stood beyond the line's end); inaccuracies only where the marks have room.
        Where the seats judged apart, the mark stands on the mover's own line, at its move."""
        out, apart = [], self.apart()
        for e in self.plies:
            cls, after = e.get("class", "ok"), e["ply"] + 1
            if e.get("kind") != "move" or cls == "ok" or (cls == "inaccuracy" and spacing < 3):
                continue
            if apart and points[e["ply"]] is not None:
                out.append((cls, e["ply"], points[e["ply"]]))
            elif after < len(points) and points[after] is not None:
                out.append((cls, after, points[after]))
        return out

    def ended_by_rules(self) -> bool:
        return self.rules.outcome(self.match.states[-1]) is not None

    def scale(self, values: list[float]) -> tuple[float, float]:
        """The graph's bottom and top values (top is better for the player)."""
        if self.unit in PERCENT_UNITS or self.rules.PLAYERS == 2:
            return 0.0, 1.0
        lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
        if hi - lo < 1e-6:
            lo, hi = lo - 1, hi + 1
        return (hi, lo) if self.better < 0 else (lo, hi)

    def x_of(self, ply: int) -> float:
        g, n = self.graph, max(1, len(self.match.moves))
        return g.x + 8 + ply * (g.width - 16) / n

    def ply_at(self, x: int) -> int:
        g, n = self.graph, max(1, len(self.match.moves))
        return max(0, min(len(self.match.moves), round((x - g.x - 8) * n / max(1, g.width - 16))))

    def draw_graph(self, surface: pygame.Surface) -> None:
        g = self.graph
        surface.blit(paper.card_sheet(g.size, theme.PANEL), g.topleft)
        points = self.points()
        known = [v for v in points if v is not None]
        lo, hi = self.scale(known)

        def y_of(v: float) -> float:
            share = (v - lo) / (hi - lo) if hi != lo else 0.5
            return g.bottom - 6 - max(0.0, min(1.0, share)) * (g.height - 12)

        two, apart = self.rules.PLAYERS == 2, self.apart()
        line = [(self.x_of(i), y_of(v)) for i, v in enumerate(points) if v is not None]
        if apart:
            pygame.draw.line(surface, theme.GRID, (g.x + 4, y_of(0.5)), (g.right - 4, y_of(0.5)))
            for seat, own in enumerate(self.seat_lines()):
                if len(own) >= 2:
                    pygame.draw.lines(surface, self.seat_ink(seat), False,
                                      [(self.x_of(p), y_of(v)) for p, v in own], 2)
        elif two:
            mid = y_of(0.5)
            if len(line) >= 2:
                # seat 0's share below the line in its ink, seat 1's above in its
                top = [(line[0][0], g.y + 6)] + line + [(line[-1][0], g.y + 6)]
                low = [(line[0][0], g.bottom - 6)] + line + [(line[-1][0], g.bottom - 6)]
                pygame.draw.polygon(surface, theme.light(self.seat_ink(1)), top)
                pygame.draw.polygon(surface, theme.light(self.seat_ink(0)), low)
            pygame.draw.line(surface, theme.GRID, (g.x + 4, mid), (g.right - 4, mid), 1)
        elif len(line) >= 2:
            low = [(line[0][0], g.bottom - 6)] + line + [(line[-1][0], g.bottom - 6)]
            pygame.draw.polygon(surface, theme.light(self.seat_ink(0)), low)
        if len(line) >= 2 and not apart:
            pygame.draw.lines(surface, theme.INK, False, line, 2)
        lost = self.lost_at()
        if lost is not None:
            x = self.x_of(lost + 1)
            pygame.draw.line(surface, theme.BAD, (x, g.y + 4), (x, g.bottom - 4), 2)
            where = {"bottomleft": (int(x) + 4, g.bottom - 4)} if x < g.centerx else \
                {"bottomright": (int(x) - 4, g.bottom - 4)}  # on the side with room
            self._label(surface, _("lost"), where, theme.BAD)
        x = self.x_of(self.ply)
        pygame.draw.line(surface, theme.FOCUS, (x, g.y + 2), (x, g.bottom - 2), 2)
        # the marks as large as the room between two positions allows; where they crowd,
        # inaccuracies are left to the move list
        spacing = (g.width - 16) / max(1, len(self.match.moves))
        radius = max(2, min(5, round(spacing * 0.8)))
        for cls, ply, v in self.marks(points, spacing):
            centre = (int(self.x_of(ply)), int(y_of(v)))
            r = radius if cls == "blunder" else max(2, radius - 1)
            pygame.draw.circle(surface, theme.MARK_COLOURS[cls], centre, r)
            if r > 2:
                pygame.draw.circle(surface, theme.INK, centre, r, 1)
        paper.rect(surface, theme.INK_SOFT, g, 1)
        # what the graph shows, in its corners
        if two:
            self._label(surface, seat_title(self.match, 1), {"topleft": (g.x + 6, g.y + 4)},
                        self.seat_ink(1))
            self._label(surface, seat_title(self.match, 0),
                        {"bottomleft": (g.x + 6, g.bottom - 4)}, self.seat_ink(0))
        label = {"win chance": _("win chance"), "survival": _("chance to go on"),
                 "probes": _("probes to the end (fewer is better)")}.get(self.unit, "")
        if apart:
            # TRANSLATORS: the review's graph of a game that hides something between the
            # sides: a line for each side's own judgement
            label = _("win chance, as each side saw it")
        if label:
            self._label(surface, label, {"topright": (g.right - 6, g.y + 4)}, theme.INK_SOFT)

    def seat_ink(self, seat: int) -> tuple[int, int, int]:
        """The ink the seat played in, as the game ended it (not as the move shown has it)."""
        return self.inks[seat]

    def _label(self, surface: pygame.Surface, words: str, where: dict, colour) -> None:
        """A word on the graph, on a slip of paper over the line (a line showing through a
        translucent slip crossed the words)."""
        img = theme.render(words, self.px(13), colour)
        box = img.get_rect(**where)
        surface.fill(theme.PANEL, box.inflate(6, 2))
        surface.blit(img, box)
        self.graph_labels.append((box, img))

    # --- drawing
    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        head = self.side.y
        sheet(surface, pygame.Rect(0, 0, w, head), theme.PAPER_DARK)
        theme.text(surface, _("Review: {game}").format(game=_(self.match.info.title)),
                   (18, head // 2), self.px(24), bold=True, anchor="midleft")
        theme.text(surface, _("Move {n}/{total}").format(n=self.ply, total=len(self.match.moves)),
                   (self.side.x - 14, head // 2), self.px(17), theme.INK_SOFT, anchor="midright")
        area = self.board_area
        self.board.draw(surface)
        self.tabs, self.captions, self.graph_labels = [], [], []
        if self.split:
            self._caption(surface, _played(), self.board.rect, theme.INK)
            self.better_board.draw(surface)
            self._caption(surface, _("Better"), self.better_board.rect, theme.GOOD)
        elif self.has_better:  # one board: two tabs say which it shows, a click swaps
            words = [(False, _played()), (True, _("Better") + " (B)")]
            size = self.px(16)
            widths = [theme.font(size, True).size(w)[0] + 24 for _b, w in words]
            x = area.centerx - (sum(widths) + 8) // 2
            for (better, word), width in zip(words, widths):
                tab = pygame.Rect(x, area.y - self.px(24), width, self.px(22))
                if better == self.show_better:
                    paper.highlight(surface, tab, theme.HILITE)
                theme.text(surface, word, tab.center, size, theme.GOOD if better else theme.INK,
                           bold=True, anchor="center")
                self.tabs.append((better, tab))
                self.captions.append(tab)
                x += width + 8
        elif self.ply:
            self._caption(surface, _played(), area, theme.INK)
        self.draw_graph(surface)
        self._draw_judgement(surface)
        sheet(surface, self.side)
        self.depth.draw(surface, False)
        self._draw_progress(surface)
        self._draw_moves(surface)
        self.side_buttons.draw(surface, show_focus=False)
        self.nav.draw(surface, show_focus=False)

    def _draw_judgement(self, surface: pygame.Surface) -> None:
        """What is said of the move shown, whole: smaller words rather than fewer."""
        said = self.judgement()
        box = self.text_box
        self.said_size, self.said = theme.fit_lines(tuple(line for line, _c in said),
                                                    box.width - 8, box.height - 4,
                                                    self.text_size, self.px(12))
        y = box.y + 4
        for i, part in self.said:
            theme.text(surface, part, (box.x + 4, y), self.said_size, said[i][1])
            y += self.said_size + 4

    def _caption(self, surface: pygame.Surface, word: str, rect: pygame.Rect, colour) -> None:
        self.captions.append(theme.text(surface, word, (rect.centerx, self.board_area.y - 4),
                                        self.px(16), colour, bold=True, anchor="midbottom"))

    def _draw_progress(self, surface: pygame.Surface) -> None:
        bar = self.bar
        pygame.draw.rect(surface, theme.PAPER, bar, border_radius=4)
        filled = bar.copy()
        filled.width = int(bar.width * self.share())
        if filled.width:
            pygame.draw.rect(surface, theme.GOOD if self.state == "done" else theme.ACCENT,
                             filled, border_radius=4)
        paper.rect(surface, theme.INK_SOFT, bar, 1)
        y = bar.bottom + 6
        size = self.px(14)
        # smaller words, else an ellipsis: the first wrapped line alone dropped the rest unseen
        small, self.status_said = theme.fit(self.status_text(), self.side.width - 28, size,
                                            self.px(11))
        theme.text(surface, self.status_said, (bar.x, y), small, theme.INK_SOFT)
        for seat, line in enumerate(self.counts()):
            colour = self.seat_ink(seat) if self.rules.PLAYERS > 1 else theme.INK
            theme.text(surface, line, (bar.x, y + self.px(18) * (seat + 1)), size, colour)

    def counts(self) -> list[str]:
        """Marks per side: ?? blunders, ? mistakes, ?! inaccuracies."""
        out = []
        for seat in range(self.rules.PLAYERS):
            mine = [e.get("class") for e in self.plies
                    if e.get("kind") == "move" and e.get("seat") == seat]
            marks = "  ".join(f"{theme.MOVE_MARKS[c]} {sum(1 for m in mine if m == c)}"
                              for c in ("blunder", "mistake", "inaccuracy"))
            who = seat_title(self.match, seat) if self.rules.PLAYERS > 1 else _("Moves")
            out.append(_("{who}: {marks}").format(who=who, marks=marks))
        return out

    def _draw_moves(self, surface: pygame.Surface) -> None:
        for ply, rect in self.move_rows:
            if ply == self.ply:
                paper.highlight(surface, rect, theme.HILITE)
            label = _("start") if ply == 0 else self.move_name(ply)
            right = rect.right - 8
            e = self.entry(ply - 1) if ply else None
            if e is not None and e.get("class", "ok") != "ok":
                drawn = theme.move_mark(surface, e["class"], (right, rect.centery), self.px(16))
                right = drawn.x - 4
            if e is not None and e.get("exact"):
                drawn = theme.text(surface, "=", (right, rect.centery), self.px(14),
                                   theme.INK_SOFT, anchor="midright")
                right = drawn.x - 4
            room = right - rect.x - 8
            size, label = theme.fit(label, room, self.px(16))
            theme.text(surface, label, (rect.x + 8, rect.centery), size, anchor="midleft")


def _mapping(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _share(value: Any) -> float | None:
    """A chance as a stored review keeps it, or None if it is not one."""
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and 0.0 <= value <= 1.0
    return float(value) if ok else None


def _boxes(value: Any) -> str | None:
    """The boxes each side ends with ("4-5"), or None if the value is not two counts."""
    if isinstance(value, list) and len(value) == 2 and all(
            type(n) is int and 0 <= n <= 10_000 for n in value):
        return f"{value[0]}-{value[1]}"
    return None
