"""No English creeps onto a translated screen: every screen drawn in a pseudo-locale that marks
each translated string (its letters accented, the whole in ⟦…⟧) may show unmarked letters only
in names a person typed and in board coordinates."""

from __future__ import annotations

import gettext
import importlib.util
import re
import socket
import sys
import unicodedata
from pathlib import Path

import pygame
import pytest
from babel.messages import pofile

from client.scenes.base import start_match
from client.ui import theme
from game import i18n, registry
from game.match import Match, Seat
from tests.harness import Harness

_spec = importlib.util.spec_from_file_location(
    "screens", Path(__file__).resolve().parents[1] / "bench" / "screens.py")
screens = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("screens", screens)
_spec.loader.exec_module(screens)

TYPED = ("Ann", "Ben")  # the names the test's people type
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _accented(c: str) -> str:
    for cp in range(0xC0, 0x250):
        if unicodedata.normalize("NFD", chr(cp))[0] == c and chr(cp) != c:
            return chr(cp)
    return chr(0xFF21 + LETTERS.index(c) - 26) if c.isupper() else chr(0xFF41 + ord(c) - 97)


ACCENT = str.maketrans({c: _accented(c) for c in LETTERS})


def pseudo(message: str) -> str:
    """The message with its letters accented, its {fields} kept, marked ⟦…⟧."""
    parts = re.split(r"(\{[^{}]*\})", message)
    return "⟦" + "".join(p if p.startswith("{") else p.translate(ACCENT) for p in parts) + "⟧"


def _catalogue_ids() -> set[tuple[str | None, str]]:
    """(context, message) of every entry the extraction put in the template."""
    with (i18n.LOCALE_DIR / f"{i18n.DOMAIN}.pot").open("rb") as f:
        return {(m.context, m.id if isinstance(m.id, str) else m.id[0])
                for m in pofile.read_po(f) if m.id}


class Pseudo(gettext.NullTranslations):
    """Marks a message only if the catalogue has it: one said through _() but never marked for
    extraction stays English here, as it would in Chinese."""

    ids = _catalogue_ids()

    def _say(self, context: str | None, message: str) -> str:
        return pseudo(message) if (context, message) in self.ids else message

    def gettext(self, message: str) -> str:
        return self._say(None, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._say(None, singular) if n == 1 else pseudo(plural) if (
            None, singular) in self.ids else plural

    def pgettext(self, context: str, message: str) -> str:
        return self._say(context, message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self._say(context, singular if n == 1 else plural)


# What may be drawn unmarked: the names typed (the people's, this computer's: the LAN lobby
# shows it), coordinates (b4, C7, E10, c3-d4, g1e2), the arcade's name, and English in the
# language menu as each language writes its own name.
NAMES = (*TYPED, re.escape(socket.gethostname().split(".")[0][:24]), "Paper Arcade", "English")
ALLOWED = re.compile("|".join(rf"\b{n}\b" for n in NAMES if n)
                     + r"|\b(?:[A-Ja-j](?:10|[1-9])?)+\b")


def leaks(drawn: list[str]) -> list[str]:
    """The drawn strings that show letters nobody translated."""
    return sorted({s for s in drawn if re.search(r"[A-Za-z]", ALLOWED.sub("", s))})


class Recorder:
    """A font that notes every string it renders."""

    def __init__(self, real: pygame.font.Font, drawn: list[str]):
        self._real, self._drawn = real, drawn

    def render(self, text, *args, **kwargs):
        self._drawn.append(str(text))
        return self._real.render(text, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._real, name)


@pytest.fixture
def drawn(monkeypatch):
    found: list[str] = []
    real = theme.font
    monkeypatch.setattr(theme, "font", lambda size, bold=False: Recorder(real(size, bold), found))
    return found


@pytest.fixture
def app():
    harness = Harness((1100, 720))
    i18n.install(Pseudo(), "zh_CN")
    yield harness.app
    i18n.set_language("en")
    harness.app.close_all()
    harness.close()


def extra_screens(game_ids: list[str]):
    """Screens bench/screens.py does not draw: a replay at its end, hot-seat play, watch, the
    resign dialog, a resigned and an agreed draw's result."""
    out = []
    for g in game_ids:
        out.append((f"{g}-replay-end", lambda app, g=g: _replay_end(app, g)))
        if registry.get(g).players == 2:
            out.append((f"{g}-hotseat", lambda app, g=g: start_match(
                app, screens.played(g, 9, 4, [Seat("human", "Ann"), Seat("human", "Ben")]))))
            out.append((f"{g}-watch", lambda app, g=g: start_match(
                app, screens.played(g, 9, 4, [Seat("ai", "Ann", "easy"),
                                              Seat("ai", "Ben", "easy")]))))
            out.append((f"{g}-resign-dialog", lambda app, g=g: (
                start_match(app, screens.mid_game(g)), app.top.ask_resign())))
            out.append((f"{g}-resigned", lambda app, g=g: _ended(app, g, "resign")))
            out.append((f"{g}-drawn", lambda app, g=g: _ended(app, g, "draw")))
    return out


def _ended(app, game_id: str, how: str) -> None:
    """The result screen of a game ended by a resignation or an agreed draw."""
    match = screens.mid_game(game_id)
    if how == "resign":
        match.resign(0)
    else:
        match.agree_draw()
    start_match(app, match)
    app.push("result", play=app.top)


def _replay_end(app, game_id: str) -> None:
    player = app.push("replay", match=screens.finished(game_id, 3, screens.human_and_bot(game_id)))
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_END, unicode="", mod=0,
                                 scancode=0)], 1 / 60)
    assert player is app.top


def test_pseudo_marks_every_letter_and_keeps_fields():
    assert pseudo("{name} wins") == "⟦{name} ŵìñś⟧"
    assert Pseudo().gettext("{side} wins") == pseudo("{side} wins")
    assert Pseudo().gettext("never marked for the catalogue") == "never marked for the catalogue"
    assert leaks(["⟦Ŕèď⟧ b4-c4", "Ann (⟦Ŕèď⟧)", "12 : 3", "English"]) == []
    assert leaks(["red b4-c4", "You (⟦Ŕèď⟧)"]) == ["You (⟦Ŕèď⟧)", "red b4-c4"]


@pytest.mark.long
@pytest.mark.parametrize("game_id", sorted(registry.available()))
def test_no_english_is_drawn_in_a_translated_language(app, drawn, game_id):
    """Every screen of this game (and the shared ones, with the first game) shows no letters
    outside the catalogue but the names typed and coordinates."""
    shared = screens.screens([game_id])
    screen_list = shared if game_id == sorted(registry.available())[0] else [
        (n, f) for n, f in shared if n.startswith(game_id)]
    screen_list += extra_screens([game_id])
    screens.prepare([game_id])
    i18n.install(Pseudo(), "zh_CN")
    found: dict[str, list[str]] = {}
    for name, open_screen in screen_list:
        app.close_all()
        app.running = True
        app.toasts.clear()
        app.push("title")
        open_screen(app)
        drawn.clear()
        for _ in range(6):
            app.step([], 1 / 60)
        bad = leaks(drawn)
        if bad:
            found[name] = bad
    assert not found, "\n".join(f"{name}: {bad}" for name, bad in found.items())


def test_a_match_with_its_default_names_says_them_in_the_language(app, drawn):
    match = Match(sorted(registry.available())[0], None, 1,
                  [Seat("human", "Player"), Seat("ai", "Bot", "easy")])
    start_match(app, match)
    for _ in range(3):
        app.step([], 1 / 60)
    assert leaks(drawn) == []


def test_no_literal_is_marked_inside_an_f_string():
    """The extraction does not read inside f-strings: a _('fox') there never reaches the
    catalogue and stays English in every language (Fox Hunt's move list did this)."""
    import io
    import tokenize

    root = Path(__file__).resolve().parents[1]
    found = []
    for folder in ("game", "client", "players", "net", "ai"):
        for path in sorted((root / folder).rglob("*.py")):
            tokens = tokenize.generate_tokens(io.StringIO(path.read_text("utf-8")).readline)
            for tok in tokens:
                prefix = re.match(r"[A-Za-z]*", tok.string).group(0).lower()
                if tok.type == tokenize.STRING and "f" in prefix and re.search(
                        r"\b(?:_|N_|pgettext|ngettext)\(\s*[\"']", tok.string):
                    found.append(f"{path.relative_to(root)}:{tok.start[0]}")
    assert not found, found
