"""The arcade's words in the player's language: English, 简体中文 or 繁體中文.

gettext catalogues compiled to assets/locale/<lang>/LC_MESSAGES/messages.mo by
`python bench/i18n.py compile` (the .po files beside them are the sources). `_()` marks and
translates a string where it is shown; `N_()` only marks one for extraction (pure modules keep
English data and the client translates it when it draws it). Numbers and dates are written as
Babel writes them for each locale (tests/test_i18n.py checks that against Babel), without Babel
at run time.

This module imports nothing of the project, so every layer may use it.
"""

from __future__ import annotations

import datetime as _dt
import errno
import gettext
import locale
import os
import string
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DOMAIN = "messages"
LANGUAGES = ("en", "zh_CN", "zh_TW")
# Each language's name written in itself, as a language menu shows it.
LANGUAGE_NAMES = {"en": "English", "zh_CN": "简体中文", "zh_TW": "繁體中文"}
_ROOT = Path(getattr(sys, "_MEIPASS", Path(__file__).resolve().parents[1]))
LOCALE_DIR = _ROOT / "assets" / "locale"

_language = "en"
_catalogue: gettext.NullTranslations = gettext.NullTranslations()
_listeners: list[Callable[[str], None]] = []


def N_(message: str) -> str:
    """Mark a string for the catalogues without translating it (it is translated when shown)."""
    return message


def _(message: str) -> str:
    """The message in the current language."""
    return _catalogue.gettext(message) if message else message


@dataclass(frozen=True)
class Text:
    """Words as data: a catalogue key (its English template, marked with N_) and the values
    that fill it. The layers below the client say what happened with a Text; the client says
    it in the player's language (`say`), so nothing parses prose."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def say(self) -> str:
        """The words in the current language (a Text among the values is said too)."""
        values = {k: v.say() if isinstance(v, Text) else v for k, v in self.params.items()}
        try:
            return _(self.key).format(**values)
        except (KeyError, IndexError, ValueError):
            return self.key.format(**values) if values else self.key

    def to_data(self) -> dict[str, Any]:
        """The Text as plain data for a file: its key and its values (a Text among them as
        data too, anything else as its str)."""
        return {"key": self.key, "values": {
            k: v.to_data() if isinstance(v, Text) else v if isinstance(v, str) or (
                type(v) is int) else str(v) for k, v in self.params.items()}}

    @classmethod
    def from_data(cls, data: Any, depth: int = 2) -> Text | None:
        """A Text read back from a file, which may be crafted: None unless every field of its
        key is a plain name its values fill (no attribute, index, conversion or format spec
        that could make a huge or revealing string), with at most four short printable
        values, Texts among them nested at most `depth` deep."""
        if not isinstance(data, dict) or not isinstance(data.get("key"), str) \
                or not 0 < len(data["key"]) <= 400 or not isinstance(data.get("values"), dict):
            return None
        values: dict[str, Any] = {}
        for name, value in data["values"].items():
            if not isinstance(name, str) or not name.isidentifier() or len(values) == 4:
                return None
            if isinstance(value, dict) and depth > 0:
                value = cls.from_data(value, depth - 1)
            elif not (type(value) is int or isinstance(value, str) and len(value) <= 200
                      and value.isprintable()):
                value = None
            if value is None:
                return None
            values[name] = value
        return cls(data["key"], values) if _fields_are_plain(data["key"], values) else None

    def english(self) -> str:
        """The words in English (logs, --headless lines)."""
        values = {k: v.english() if isinstance(v, Text) else v for k, v in self.params.items()}
        try:
            return self.key.format(**values)
        except (KeyError, IndexError, ValueError):
            return self.key


# The operating system's errors a player meets, in words the catalogues hold (the system's own
# words are English on most machines).
_SYSTEM_ERRORS = {
    errno.ENOSPC: N_("the disk is full"), errno.EDQUOT: N_("the disk is full"),
    errno.EACCES: N_("permission denied"), errno.EPERM: N_("permission denied"),
    errno.EROFS: N_("the disk is read-only"), errno.ENOENT: N_("no such file or folder"),
    errno.ENAMETOOLONG: N_("the name is too long"), errno.EADDRINUSE: N_("the port is in use"),
    errno.EADDRNOTAVAIL: N_("that address is not this computer's"),
    errno.ENETUNREACH: N_("the network cannot be reached"),
    errno.EHOSTUNREACH: N_("the network cannot be reached"),
    errno.ETIMEDOUT: N_("no answer in time"), errno.ECONNRESET: N_("the connection was reset"),
}


def system_error(exc: OSError) -> Text:
    """An operating system error in the player's language where it is one a player meets;
    else in the system's own words."""
    if exc.errno in _SYSTEM_ERRORS:
        return Text(_SYSTEM_ERRORS[exc.errno])
    return Text("{error}", {"error": exc.strerror or str(exc)})


def _fields_are_plain(key: str, values: Mapping[str, Any]) -> bool:
    """Every replacement field of `key` is `{name}` for one of `values`."""
    try:
        fields = [(f, spec, conv) for _lit, f, spec, conv in string.Formatter().parse(key)
                  if f is not None]
    except ValueError:  # an unmatched brace
        return False
    return all(f in values and not spec and conv is None for f, spec, conv in fields)


def pgettext(context: str, message: str) -> str:
    """The message in the current language, as meant in this context (one English word, two
    meanings: "Play" a game on the title screen, "Play" a replay in the viewer)."""
    return _catalogue.pgettext(context, message) if message else message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for n, as the current language counts (Chinese has one)."""
    return _catalogue.ngettext(singular, plural, n)


def language() -> str:
    """The current language code: one of LANGUAGES."""
    return _language


def normalize(code: str | None) -> str | None:
    """A locale name (zh_CN.UTF-8, zh-Hant-TW, en_GB, zh_HK) as one of LANGUAGES, else None."""
    if not code:
        return None
    c = code.split(".")[0].split("@")[0].replace("-", "_").lower()
    if c in ("c", "posix"):
        return None
    if c.startswith("zh"):
        traditional = any(t in c for t in ("hant", "_tw", "_hk", "_mo"))
        return "zh_TW" if traditional else "zh_CN"
    if c.startswith("en"):
        return "en"
    return None


def system_language(environ: Mapping[str, str] | None = None,
                    getlocale: Callable[[], tuple[str | None, str | None]] = locale.getlocale,
                    ) -> str:
    """The system's language if the arcade speaks it, else English.

    LANGUAGE (a colon-separated preference list), LC_ALL, LC_MESSAGES and LANG are read first,
    as gettext does; then the process locale (Windows and macOS set no variables)."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var)
        if not value:
            continue
        for part in value.split(":"):
            found = normalize(part)
            if found:
                return found
        if var != "LANGUAGE":
            return "en"  # the first set variable decides, as gettext reads them
    try:
        found = normalize(getlocale()[0])
    except (ValueError, TypeError):
        found = None
    return found or "en"


def set_language(code: str | None) -> str:
    """Switch every later `_()` to this language (unknown codes fall back to English)."""
    global _language, _catalogue
    code = code if code in LANGUAGES else "en"
    if code == "en":
        catalogue: gettext.NullTranslations = gettext.NullTranslations()
    else:
        catalogue = gettext.translation(DOMAIN, LOCALE_DIR, [code], fallback=True)
    _language, _catalogue = code, catalogue
    for listener in list(_listeners):
        listener(code)
    return code


def install(catalogue: gettext.NullTranslations, code: str = "en") -> None:
    """Say everything through this catalogue from now on (tests: a pseudo-locale that marks
    every translated string); set_language puts a real one back."""
    global _language, _catalogue
    _language, _catalogue = code, catalogue
    for listener in list(_listeners):
        listener(code)


def on_change(listener: Callable[[str], None]) -> None:
    """Call listener(code) after every set_language."""
    _listeners.append(listener)


def translate_text(text: str) -> str:
    """A long text (a rules page) translated paragraph by paragraph (blank-line separated)."""
    return "\n\n".join(_(p) for p in paragraphs(text))


def paragraphs(text: str) -> list[str]:
    """The paragraphs translate_text looks up, as the extraction script lists them."""
    return [p.strip() for p in text.strip().split("\n\n") if p.strip()]


# --- numbers and dates, as Babel writes them for each language (checked by the tests)

def format_number(n: float, digits: int = 0) -> str:
    """1,234 or 1,234.5 (all three languages group thousands with commas)."""
    return f"{n:,.{digits}f}" if digits else f"{round(n):,}"


def format_percent(fraction: float) -> str:
    """0.42 as 42%."""
    return f"{round(fraction * 100):,}%"


_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
# 繁體中文's flexible day periods (CLDR's "B"): from this hour on, until the next.
_PERIODS_TW = ((0, "凌晨"), (5, "清晨"), (8, "上午"), (12, "中午"), (13, "下午"), (19, "晚上"))


def format_date(d: _dt.date) -> str:
    """A date in the medium style: Mar 12, 2025 / 2025年3月12日."""
    if _language == "en":
        return f"{_MONTHS[d.month - 1]} {d.day}, {d.year}"
    return f"{d.year}年{d.month}月{d.day}日"


def format_time(t: _dt.time | _dt.datetime) -> str:
    """A time of day in the short style: 2:05 PM / 14:05 / 下午2:05."""
    hour12 = t.hour % 12 or 12
    if _language == "en":
        return f"{hour12}:{t.minute:02d}\u202f{'AM' if t.hour < 12 else 'PM'}"
    if _language == "zh_CN":
        return f"{t.hour:02d}:{t.minute:02d}"
    if t.hour == 0 and t.minute == 0:
        period = "午夜"
    else:
        period = [name for start, name in _PERIODS_TW if t.hour >= start][-1]
    return f"{period}{hour12}:{t.minute:02d}"


def format_datetime(when: _dt.datetime | float) -> str:
    """A date and time (a datetime or a Unix time, shown in local time)."""
    if not isinstance(when, _dt.datetime):
        when = _dt.datetime.fromtimestamp(when)
    sep = ", " if _language == "en" else " "
    return f"{format_date(when)}{sep}{format_time(when)}"


# The names the arcade gives when nobody typed one (English in records, said in the language).
DEFAULT_NAMES = frozenset((N_("Player"), N_("You"), N_("Bot"), N_("Bot A"), N_("Bot B"),
                           N_("Player 1"), N_("Player 2"), N_("Random bot"), N_("Easy bot"),
                           N_("Normal bot"), N_("Hard bot")))


def person(name: str) -> str:
    """A seat's name as the screen shows it: a default name in the language, a typed one as
    typed."""
    return _(name) if name in DEFAULT_NAMES else name


def seat_title(match, seat: int) -> str:
    """How the screen names a seat, in the language: the player's name and the game's colour."""
    name = person(match.seats[seat].name)
    if match.rules.PLAYERS > 1:
        return _("{name} ({side})").format(name=name, side=_(match.rules.SEAT_NAMES[seat]))
    return name


def view_title(match, seat: int) -> str:
    """A seat's view of a game with hidden information, named in the language."""
    if match.seats[seat].name == "You":  # not "You's view"
        if match.rules.PLAYERS > 1:
            return _("Your view ({side})").format(side=_(match.rules.SEAT_NAMES[seat]))
        return _("Your view")
    return _("{player}'s view").format(player=seat_title(match, seat))


def options_said(spec, options: Mapping[str, Any]) -> str:
    """The options that differ from the game's defaults, in the language ("Fog of war: On");
    empty where all are the defaults. spec: the game's `OPTIONS`."""
    said = []
    for opt in spec:
        value = options.get(opt.key, opt.default)
        try:  # the options' own check: 1 is not True, as for a game's options
            value = opt.check(value)
        except ValueError:  # not a choice (a crafted beacon): nothing to say of it
            continue
        if value != opt.default:
            choice = next(label for v, label in opt.choices if v == value)
            # TRANSLATORS: a game option and the choice made ("Fog of war: On")
            said.append(_("{option}: {choice}").format(option=_(opt.label), choice=_(choice)))
    # TRANSLATORS: between two options in a list ("Fog of war: On, Rules: China")
    return _(", ").join(said)


def capitalized(text: str, marks: Sequence[str] = ()) -> str:
    """A phrase set as a line or a label of its own: its first letter a capital (the rest as
    it is; Chinese has no capitals), unless it opens with one of `marks`, a game's one-letter
    side names (SEAT_NAMES), written as the board marks them: Ataxx's "x wins", "o 方获胜"."""
    for name in marks:
        mark, after = _(name), text[1:2]
        if len(mark) == 1 and text.startswith(mark) and not (after.isascii() and after.isalpha()):
            return text
    return text[:1].upper() + text[1:]


def side_label(name: str) -> str:
    """A side's name (in the language) as a label of its own: a word with its capital ("Red"),
    a one-letter symbol as the board marks it (Ataxx's x and o)."""
    return name if name[1:2] in ("", " ") else capitalized(name)


def side_wins(side: str) -> str:
    """"red wins" in the language; a side named by a one-letter mark (Ataxx's x and o) has its
    own words, where Chinese says "o 方获胜" (side o), not "o获胜"."""
    if len(side) == 1 and side.isascii():
        # TRANSLATORS: a side named by its one-letter mark as the board shows it (Ataxx's x, o)
        return _("{mark} wins").format(mark=side)
    return _("{side} wins").format(side=side)


def outcome_reason(outcome) -> str:
    """Why a game ended, in the language."""
    return outcome.words.say()


def result_summary(match, unit: str = "") -> str:
    """One line for a match's result in the language: who won, the score (the winner's first;
    unit, an English msgid, says what it counts) and why."""
    out = match.outcome()
    if out is None:
        return _("unfinished")
    return result_words(match.rules, out.winner, out.score, unit, outcome_reason(out))


def result_words(rules, winner: int | None, score: Sequence[int], unit: str = "",
                 reason: str = "") -> str:
    """A result in the language ("blue wins 7-6 stones (resigned)", "game over at 1,196
    points"): who won, the score with the winner's first (unit, an English msgid, says what it
    counts), and why, where reason is given."""
    order = list(score)
    if winner is not None and 0 <= winner < len(order):
        order.insert(0, order.pop(winner))
    said = "-".join(format_number(s) for s in order)
    if rules.PLAYERS > 1 and winner is not None and len(order) > 1 and order[0] <= max(order[1:]):
        said = ""  # a count that does not explain the win (resigned while level, a den entered)
    if unit and said:
        said = _("{score} {unit}").format(score=said, unit=_(unit))
    if rules.PLAYERS == 1:
        if not said:
            line = _("won") if winner == 0 else _("game over")
        else:  # "over 1,196 points" read as "more than"
            line = (_("won with {score}") if winner == 0 else _("game over at {score}")).format(
                score=said)
    else:
        verdict = _("draw") if winner is None else side_wins(_(rules.SEAT_NAMES[winner]))
        line = _("{verdict} {score}").format(verdict=verdict, score=said).strip()
    return _("{result} ({reason})").format(result=line, reason=reason) if reason else line
