"""Offers between the two players of a LAN game (a draw, a takeback, a rematch) and the
questions they put to the local player.

One question per kind is open at a time; a repeat while it is open is declined at once. Each is
answered once; an answer given after the game moved on (a move, the end, another match, a new
link) declines. A question whose link closed is withdrawn: the table is told (WITHDRAWN) so the
dialog goes away, and a late click on it does nothing.

This side's own offers: one of each kind is out at a time. A side that asked for a takeback
waits for the answer before it moves, so the answer finds both sides where it was asked. The
side that allows a takeback keeps the position it took back from until the asker moves: an end
the asker sent before it heard the answer (`net/ending.py`) brings that position back.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from game.i18n import N_, Text
from game.match import Ending, Match
from game.rules import Termination
from net import messages
from net.peer_text import CHAT_MAX, peer_line
from net.secrets import Secrets
from players.events import EventKind, Question

DRAW, TAKEBACK, REMATCH = "draw_reply", "takeback_reply", "rematch_reply"


class Offers:
    """The offers and the local player's open questions (a part of net.session.Session)."""

    match: Match
    seat: int
    peer_seat: int
    is_host: bool
    peer_name: str
    hidden: Secrets
    waiting: bool
    offers: dict[str, int]  # what this side offered and awaits a reply to: ply
    rematch_agreed: bool
    undone: tuple[int, Match, list[dict]] | None

    if TYPE_CHECKING:  # what the session provides
        def pump(self) -> None: ...
        def send(self, message: dict) -> bool: ...
        def _note(self, kind: EventKind, **fields: Any) -> None: ...
        def _say(self, key: str, **params: Any) -> None: ...
        def after_move(self) -> None: ...
        def peer_ended(self, ply: int, ending: Ending) -> None: ...
        def kept(self) -> list[dict]: ...
        def new_game(self, seed: int) -> None: ...
        def _seed_for_guest(self) -> int: ...
        def _dropped(self, plies: int) -> None: ...

    def _init_offers(self) -> None:
        self.offers = {}
        self.rematch_agreed = False  # guest: a rematch was agreed, the host's new_game may come
        self.questions: dict[str, Question] = {}  # the peer's offers the local player has open

    # --- this side's offers
    def _offer(self, kind: str, message: dict) -> bool:
        if kind in self.offers:
            return False  # one of each kind out at a time
        self.offers[kind] = len(self.match.moves)
        self.send(message)
        return True

    def offer_draw(self) -> bool:
        """Offer a draw; False if none was sent (one is out already, or the game is over)."""
        return not self.match.over and self._offer(
            "draw", {"type": "draw_offer", "ply": len(self.match.moves)})

    def request_takeback(self) -> bool:
        """Ask to take back; False if nothing was sent (one is out already, or not now)."""
        m = self.match
        if m.over or self.waiting or not m.back_for(self.seat):  # no move of its own yet
            return False
        if self._shows_hidden(self.seat):
            self._say(N_("A move that showed something hidden cannot be taken back"))
            return False
        return self._offer("takeback", {"type": "takeback", "ply": len(m.moves)})

    def _shows_hidden(self, seat: int) -> bool:
        """Whether taking back to `seat`'s last turn would undo a ply that showed a secret (a
        flip's piece, a shot's answer): what was shown stays known, so it stays played."""
        m = self.match
        return self.hidden.shown_since(len(m.moves) - m.back_for(seat))

    def offer_rematch(self) -> None:
        if self.match.over:
            self._offer("rematch", {"type": "rematch"})

    # --- the peer's offers
    def _on_draw_offer(self, message: dict) -> None:
        ply = len(self.match.moves)
        if message["ply"] != ply:  # made before a move crossed it: void
            self.send({"type": DRAW, "accept": False, "ply": message["ply"]})
            return
        self._ask(N_("{name} offers a draw"), DRAW, N_("Accept"), N_("Decline"), ply=ply)

    def _on_takeback(self, message: dict) -> None:
        ply = len(self.match.moves)
        # stale, no move of the asker's to take back, or back past a flip or shot whose secret
        # was shown (or given, echo to come)
        if message["ply"] != ply or self.waiting or not self.match.back_for(self.peer_seat) \
                or self._shows_hidden(self.peer_seat) or "takeback" in self.offers:
            self.send({"type": TAKEBACK, "accept": False, "ply": message["ply"]})
            return
        self._ask(N_("{name} asks to take back a move"), TAKEBACK, N_("Allow"), N_("Refuse"),
                  ply=ply)

    def _on_rematch(self, message: dict) -> None:
        self._ask(N_("{name} wants a rematch"), REMATCH, N_("Play again"), N_("No"))

    def _on_draw_reply(self, message: dict) -> None:
        asked = self.offers.pop("draw")
        if message["accept"] and message["ply"] == asked:
            self.peer_ended(asked, Ending(None, Termination.AGREED_DRAW, "Draw agreed"))
        elif not message["accept"] and not self.match.over:
            self._say(N_("{name} declined the draw") if len(self.match.moves) == asked
                      else N_("Your draw offer lapsed: a move was played after it"))

    def _on_takeback_reply(self, message: dict) -> None:
        asked = self.offers.pop("takeback")
        if message["accept"] and message["ply"] == asked == len(self.match.moves):
            self.take_back(self.seat)
            return
        if not message["accept"]:
            self._say(N_("{name} refused the takeback"))
        self._note(EventKind.REFRESH)  # no longer waiting for the answer: this side may move

    def _on_rematch_reply(self, message: dict) -> None:
        del self.offers["rematch"]
        if message["accept"] and not self.is_host:
            self.rematch_agreed = True
        if message["accept"] and self.is_host:
            self._start_rematch()
        elif not message["accept"]:
            self._say(N_("{name} does not want a rematch"))

    def _start_rematch(self) -> None:
        self.new_game(random.randrange(2**31))
        self.send({"type": "new_game", "seed": self._seed_for_guest(),
                   **self.hidden.welcome_fields()})

    def _on_new_game(self, message: dict) -> None:
        self.rematch_agreed = False
        self.new_game(message["seed"])
        self.hidden.welcomed(message)

    def take_back(self, seat: int, allowed: bool = False) -> None:
        """Both sides take back to `seat`'s last turn; the side that allowed it keeps what it
        took back until the asker moves (a crossing end brings it back)."""
        m = self.match
        before = (len(m.moves), m, self.kept()) if allowed else None
        taken = m.undo_for(seat)
        self.undone = before if taken else None
        self._dropped(len(m.moves))
        if taken:
            self._say(N_("A move was taken back"))
        self._note(EventKind.REFRESH)

    # --- the questions
    def _ask(self, text: str, reply: str, yes: str, no: str, **extra: Any) -> None:
        """Put the peer's offer to the local player (see the module's docstring)."""
        if reply in self.questions:
            self.send({"type": reply, "accept": False, **extra})
            return
        asked = (len(self.match.moves), self.match, self.match.over)

        def answer(accept: bool) -> None:
            if self.questions.get(reply) is not question:
                return  # answered once, or withdrawn
            del self.questions[reply]
            if asked != (len(self.match.moves), self.match, self.match.over) or (
                    self.waiting and reply != REMATCH):
                if accept and reply != REMATCH:  # the game moved on, or a move of ours is out
                    self._say(N_("Too late: a move was played since, so the offer lapsed"))
                accept = False
            if not self.send({"type": reply, "accept": accept, **extra}) or not accept:
                return  # an accept that could not go changes nothing
            if reply == DRAW:
                self.match.agree_draw("Draw agreed")
                self._note(EventKind.REFRESH)
                self.after_move()
            elif reply == TAKEBACK:
                self.take_back(self.peer_seat, allowed=True)
            elif self.is_host:
                self._start_rematch()
            else:
                self.rematch_agreed = True

        def still_open() -> bool:
            self.pump()  # the link is kept serviced while the player thinks
            return self.questions.get(reply) is question

        question = Question(Text(text, {"name": self.peer_name}), Text(""), Text(yes), Text(no),
                            on_yes=lambda: answer(True), on_no=lambda: answer(False),
                            still_open=still_open)
        self.questions[reply] = question
        self._note(EventKind.ASK, question=question)

    def withdraw_questions(self) -> None:
        """The link is gone or the match replaced: the open questions go, and the table is told
        so its dialogs go too (a late click on one does nothing)."""
        for question in self.questions.values():
            self._note(EventKind.WITHDRAWN, question=question)
        self.questions = {}

    # --- what the players say
    def chat(self, text: str) -> None:
        """Say a line to the other player; this side's screen shows it was sent, or why not."""
        line = peer_line(text, CHAT_MAX)
        if not line:
            return
        if self.send({"type": "chat", "text": line}):
            # TRANSLATORS: the sender's own chat line, as sent to the other player
            self._note(EventKind.CHAT, text=Text(N_("You: {text}"), {"text": line}))
        else:
            self._say(N_("Not sent: {name} is not linked"))

    def _on_error(self, message: dict) -> None:
        was, self.waiting = self.waiting, False
        self._say(N_("{name}: {text}"), text=messages.said(message))
        if was and not self.waiting:  # a refused move: this side moves again (an error that
            self._note(EventKind.REFRESH)  # frees nothing asks for no look, nor its save)

    def _on_chat(self, message: dict) -> None:
        self._note(EventKind.CHAT, text=Text(N_("{name}: {text}"), {
            "name": self.peer_name, "text": peer_line(message["text"], CHAT_MAX)}))
