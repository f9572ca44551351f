"""The interface's catalogues: extract the English strings, update the .po files, compile .mo.

    python bench/i18n.py extract    # assets/locale/messages.pot from the code and the games' data
    python bench/i18n.py update     # merge the template into every language's .po
    python bench/i18n.py compile    # the .po files to .mo (committed: no Babel at run time)
    python bench/i18n.py status     # untranslated and fuzzy entries per language

Strings come from `_()`, `N_()`, `ngettext()` and `pgettext()` (with its context) in game/,
client/, players/, net/ and ai/, and from the data pure modules keep in English: each game's
title, tagline, seat names, options, settings rows and rules page (one entry per paragraph), the
Termination texts and the bot levels.
Needs Babel (requirements-dev.txt).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from babel.messages import mofile, pofile  # noqa: E402
from babel.messages.catalog import Catalog  # noqa: E402
from babel.messages.extract import extract_from_dir  # noqa: E402

from game.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, paragraphs  # noqa: E402

POT = LOCALE_DIR / f"{DOMAIN}.pot"
SOURCES = ("game", "client", "players", "net", "ai", "main.py")
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
PROJECT = "Paper Arcade"


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def data_strings() -> list[tuple[str, str]]:
    """(where, text) for every English string the pure modules keep as data."""
    from ai.base import LEVEL_TITLES
    from game import registry
    from game.rules import Termination

    found: list[tuple[str, str]] = []
    for t in Termination:
        found.append(("game/rules/__init__.py:Termination", t.text))
    for title in LEVEL_TITLES.values():
        found.append(("ai/base.py:LEVEL_TITLES", title))
    for game_id in registry.available():
        info = registry.get(game_id)
        rules = info.rules
        where = f"game/rules/{game_id}.py"
        found += [(f"{where}:TITLE", rules.TITLE), (f"{where}:TAGLINE", rules.TAGLINE)]
        found += [(f"{where}:SEAT_NAMES", s) for s in rules.SEAT_NAMES]
        for opt in rules.OPTIONS:
            found.append((f"{where}:OPTIONS", opt.label))
            found += [(f"{where}:OPTIONS", label) for _, label in opt.choices]
        found += [(f"{where}:RULES_TEXT", p) for p in paragraphs(rules.RULES_TEXT)]
        for s in info.board_module().Board.SETTINGS:
            if s.choices:
                found.append((f"client/boards/{game_id}.py:SETTINGS", s.label))
                found += [(f"client/boards/{game_id}.py:SETTINGS", label)
                          for _, label in s.choices]
    return [(w, s) for w, s in found if s and any(ch.isalpha() for ch in s)]


def extract() -> Catalog:
    catalog = Catalog(project=PROJECT, charset="utf-8", fuzzy=False)
    for source in SOURCES:
        path = ROOT / source
        if path.is_dir():
            items = extract_from_dir(str(path), [("**.py", "python")], keywords=KEYWORDS,
                                     comment_tags=("TRANSLATORS:",))
            for filename, lineno, message, comments, context in items:
                catalog.add(message, None, [(f"{source}/{filename}", lineno)],
                            auto_comments=comments, context=context)
        else:
            with path.open("rb") as f:
                from babel.messages.extract import extract as extract_file
                for lineno, message, comments, context in extract_file(
                        "python", f, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)):
                    catalog.add(message, None, [(source, lineno)], auto_comments=comments,
                                context=context)
    for where, text in data_strings():
        file, _, name = where.partition(":")
        if text in catalog:
            catalog[text].locations.append((f"{file} {name}", 0))
        else:
            catalog.add(text, None, [(f"{file} {name}", 0)])
    LOCALE_DIR.mkdir(parents=True, exist_ok=True)
    with POT.open("wb") as f:
        pofile.write_po(f, catalog, width=100, sort_output=False, omit_header=False)
    print(f"{POT.relative_to(ROOT)}: {len(catalog)} messages")
    return catalog


def update() -> None:
    with POT.open("rb") as f:
        template = pofile.read_po(f)
    for lang in LANGUAGES[1:]:
        path = po_path(lang)
        if path.exists():
            with path.open("rb") as f:
                catalog = pofile.read_po(f, locale=lang)
        else:
            catalog = Catalog(locale=lang, project=PROJECT, charset="utf-8", fuzzy=False)
        catalog.update(template, no_fuzzy_matching=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            pofile.write_po(f, catalog, width=100, ignore_obsolete=True)
        print(f"{path.relative_to(ROOT)}: {len(catalog)} messages")


def read(lang: str) -> Catalog:
    with po_path(lang).open("rb") as f:
        return pofile.read_po(f, locale=lang)


def problems(lang: str) -> list[str]:
    """Untranslated or fuzzy entries of one language's catalogue."""
    out = []
    for m in read(lang):
        if not m.id:
            continue
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if m.fuzzy or not all(strings):
            out.append(m.id if isinstance(m.id, str) else m.id[0])
    return out


def compile_all() -> None:
    for lang in LANGUAGES[1:]:
        catalog = read(lang)
        missing = problems(lang)
        out = po_path(lang).with_suffix(".mo")
        with out.open("wb") as f:
            mofile.write_mo(f, catalog, use_fuzzy=False)
        print(f"{out.relative_to(ROOT)}: {len(catalog)} messages, {len(missing)} untranslated")


def status() -> None:
    for lang in LANGUAGES[1:]:
        missing = problems(lang)
        print(f"{lang}: {len(missing)} untranslated or fuzzy")
        for m in missing:
            print("   ", m[:90].replace("\n", " "))


if __name__ == "__main__":
    commands = {"extract": extract, "update": update, "compile": compile_all, "status": status}
    if len(sys.argv) != 2 or sys.argv[1] not in commands:
        sys.exit(__doc__)
    commands[sys.argv[1]]()
