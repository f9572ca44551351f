"""A desktop entry for Linux and other freedesktop systems: `paper-arcade --install-shortcut`.

Writes XDG_DATA_HOME/applications/paper-arcade.desktop and the icon into the user's hicolor
theme (XDG_DATA_HOME/icons/hicolor/<n>x<n>/apps/paper-arcade.png), so the arcade shows in the
desktop's menu and can be pinned or dragged to the desktop. Nothing outside the user's folders.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

NAME = "paper-arcade"
ICON_SIZES = (48, 128, 256, 512)
ROOT = Path(__file__).resolve().parent.parent  # the checkout, site-packages or the app folder
ICONS = ROOT / "assets" / "icons"
# characters that make an Exec argument need quotes (Desktop Entry Specification, "Exec key")
_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


def data_home(environ: dict[str, str] | None = None) -> Path:
    """XDG_DATA_HOME, or ~/.local/share when it is unset or not absolute (as the spec says)."""
    env = os.environ if environ is None else environ
    value = env.get("XDG_DATA_HOME", "")
    if value and os.path.isabs(value):
        return Path(value)
    return Path(env.get("HOME") or Path.home()) / ".local" / "share"


def launcher(argv0: str | None = None, frozen: bool | None = None) -> list[str]:
    """The command line that starts the arcade the way it was started now, with absolute paths."""
    frozen = bool(getattr(sys, "frozen", False)) if frozen is None else frozen
    if frozen:  # the PyInstaller app: its own executable
        return [str(Path(sys.executable).resolve())]
    script = Path(argv0 if argv0 is not None else sys.argv[0]).absolute()
    if script.suffix == ".py" or not script.is_file():
        # `python main.py` from the checkout (or `python -m main`)
        return [str(Path(sys.executable).absolute()), str(ROOT / "main.py")]
    gui = script.with_name(f"{NAME}-gui")  # pip's windowless launcher beside the command
    return [str(gui if gui.is_file() else script)]


def quote_exec_arg(arg: str) -> str:
    """One argument of an Exec line: quoted when it must be, with % doubled."""
    arg = arg.replace("%", "%%")
    if not arg or _RESERVED & set(arg):
        for ch in "\\\"`$":
            arg = arg.replace(ch, "\\" + ch)
        arg = f'"{arg}"'
    # the key file's own escape for a backslash, applied after the Exec quoting
    return arg.replace("\\", "\\\\")


def desktop_entry(command: list[str]) -> str:
    """The text of paper-arcade.desktop for this command line."""
    return "\n".join([
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.5",
        "Name=Paper Arcade",
        "GenericName=Strategy games",
        "Comment=Small strategy games against a friend, the computer or the LAN",
        f"Exec={' '.join(quote_exec_arg(a) for a in command)}",
        f"Icon={NAME}",
        "Terminal=false",
        "Categories=Game;BoardGame;StrategyGame;",
        "Keywords=game;board;strategy;arcade;",
        "StartupNotify=true",
        "",
    ])


def shortcut_paths(home: Path) -> list[Path]:
    """Where install_shortcut writes: the entry first, then one icon per size."""
    return [home / "applications" / f"{NAME}.desktop"] + [
        home / "icons" / "hicolor" / f"{n}x{n}" / "apps" / f"{NAME}.png" for n in ICON_SIZES]


def install_shortcut(home: Path | None = None, command: list[str] | None = None) -> list[Path]:
    """Write the desktop entry and the icons under home (XDG_DATA_HOME); returns the files."""
    home = data_home() if home is None else home
    entry, *icons = shortcut_paths(home)
    for n, path in zip(ICON_SIZES, icons):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes((ICONS / f"{NAME}-{n}.png").read_bytes())
    entry.parent.mkdir(parents=True, exist_ok=True)
    tmp = entry.with_suffix(".tmp")
    tmp.write_text(desktop_entry(launcher() if command is None else command), encoding="utf-8")
    tmp.chmod(0o755)  # file managers run an entry copied to the desktop only when it is executable
    os.replace(tmp, entry)
    return [entry, *icons]


def remove_shortcut(home: Path | None = None) -> list[Path]:
    """Remove what install_shortcut wrote; returns the files that were there."""
    home = data_home() if home is None else home
    removed = []
    for path in shortcut_paths(home):
        if path.is_file():
            path.unlink()
            removed.append(path)
    return removed


def supported(platform: str | None = None) -> bool:
    """Desktop entries are a freedesktop thing: not Windows or macOS (they get the app folder)."""
    platform = sys.platform if platform is None else platform
    return not platform.startswith(("win", "cygwin", "darwin"))
